"""What the pages ask of htmx beyond its attributes."""

# A response with this status cancels the polling of the element that asked for it.
STOP_POLLING = 286
