# A few fibers talking over unbuffered channels with select, as generated
# Crystal programs do; prints the sum it received.
a = Channel(Int32).new
b = Channel(Int32).new
spawn { 3.times { |i| a.send(i) } }
spawn { 3.times { |i| b.send(10 * i) } }
sum = 0
6.times do
  select
  when x = a.receive
    sum += x
  when y = b.receive
    sum += y
  end
end
puts "sum #{sum}"
