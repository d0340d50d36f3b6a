# Sourced by the scripts that start private PostgreSQL servers (with-test-postgres.sh,
# with-test-replica.sh): finds the server's binaries (bin), makes a fresh directory under /tmp
# named after $1 (dir), owned by postgres when running as root, who alone may start the server
# (as_pg prefixes the commands that must run as them).
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] || bin=$(dirname "$(command -v initdb)")
dir=$(mktemp -d "/tmp/$1.XXXXXX")
chmod 755 "$dir"
as_pg=()
if [ "$(id -u)" -eq 0 ]; then
  chown postgres:postgres "$dir"
  as_pg=(runuser -u postgres --)
fi
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
