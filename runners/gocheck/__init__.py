"""gocheck's runner side: the Go front end (a helper built with the machine's Go) and the
check of a file from its source to its verdict (`check`)."""
