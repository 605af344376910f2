#!/bin/sh
# partyhub's routing proxy: one `server` line per web replica in nginx's partyhub_web upstream
# (deploy/nginx/default.conf.template), kept current as replicas come and go.
#
# docker-compose.yml mounts this as /docker-entrypoint.d/40-partyhub-upstream.sh: the nginx
# image runs it after rendering the template and before nginx starts. It writes the servers
# once, then leaves a loop behind that asks the name again every WEB_RESOLVE_SECONDS and
# reloads nginx when the set of addresses changed (a replica added, removed or recreated).
#
# Why not `server web:8000 resolve;`: nginx's consistent hash puts server *names* on its
# ring, and the addresses one name resolves to share that name's points and take turns
# (round-robin), which would spread a room's sockets again; and open-source nginx has
# `resolve` only from 1.27.3 (compose-lab's stand-in image is Debian's 1.22). One line per
# address puts each replica on the ring by its own address.
#
#   WEB_UPSTREAM         host:port of the web service (web:8000)
#   WEB_RESOLVE_SECONDS  how often the name is asked again (2)
#   PARTYHUB_SERVERS     the file written (/etc/nginx/conf.d/partyhub-web.servers)
set -eu

upstream=${WEB_UPSTREAM:-web:8000}
host=${upstream%:*}
port=${upstream##*:}
every=${WEB_RESOLVE_SECONDS:-2}
out=${PARTYHUB_SERVERS:-/etc/nginx/conf.d/partyhub-web.servers}

# The IPv4 addresses in a resolver's answer, sorted, on one line.
ipv4s() {
    awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$/) print $i }' |
        sort -u | tr '\n' ' ' | sed 's/ $//'
}

# The addresses of a name: glibc's getent; where it answers nothing (Alpine's getent knows no
# ahostsv4), BusyBox's nslookup, whose answer follows the resolver's own address.
addresses() {
    found=$(getent ahostsv4 "$1" 2>/dev/null | ipv4s)
    if [ -z "$found" ]; then
        found=$(nslookup "$1" 2>/dev/null | awk '/^Name:/ { seen = 1; next } seen' | ipv4s)
    fi
    echo "$found"
}

# The servers of the upstream: each replica's address. A replica that fails a connection is
# left alone for 10 s (its rooms go to the next replica on the ring) until the name drops it.
# No address at all (yet): a placeholder that answers 502, until the loop finds one.
render() {
    {
        echo "# Written by partyhub's upstream.sh from the addresses of $host; do not edit."
        if [ -z "$1" ]; then
            echo "server 127.0.0.1:9 down;"
        fi
        for address in $1; do
            echo "server $address:$port max_fails=1 fail_timeout=10s;"
        done
    } > "$out.new"
    mv "$out.new" "$out"
}

# Ask again every few seconds; reload when the set changed. An empty answer (a DNS hiccup,
# or every replica being recreated) keeps the last servers: the next answer brings the new.
watch() {
    current=$1
    while sleep "$every"; do
        found=$(addresses "$host")
        if [ -z "$found" ] || [ "$found" = "$current" ]; then
            continue
        fi
        render "$found"
        if nginx -s reload 2>/dev/null; then
            echo "partyhub upstream: $host is now $found"
            current=$found
        fi
    done
}

first=$(addresses "$host")
render "$first"
echo "partyhub upstream: $host is ${first:-not resolvable yet}"
if [ "${1:-}" != "--once" ]; then
    watch "$first" &
fi
