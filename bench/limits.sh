# Sourced by the bench scripts before they start a server. A load test is many users from one
# address, faster than any person: the rate limits are set far above it, and still counted, so
# that their cost stays in the figures.
for class in READ WRITE UPLOAD; do
  for caller in USER SERVER ADDRESS; do export "FEEDS_RATE_LIMIT_${class}_${caller}=1000000000"; done
done
# Its sockets all come from one address, thousands at once before they authenticate.
export FEEDS_WS_PENDING=100000 FEEDS_WS_PENDING_PER_ADDRESS=100000
