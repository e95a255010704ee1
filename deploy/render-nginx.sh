#!/bin/sh
# Writes the nginx configuration of the portal into OUT_DIR (see deploy/nginx.conf.template):
# nginx.conf with PORTAL_LISTEN, PORTAL_DIST and PORTAL_API filled in, and portal-headers.conf,
# the headers of dist/_headers for every answer (the build's Content-Security-Policy and the rest)
# as add_header lines, with proxy_hide_header lines so that an upstream's own copies are not sent
# twice. Run it after every build. Needs envsubst (Debian: gettext-base) and awk.
#
#   PORTAL_LISTEN=8080 PORTAL_DIST=/srv/portal/dist PORTAL_API=http://127.0.0.1:8081 deploy/render-nginx.sh OUT_DIR
set -eu

out=${1:?usage: PORTAL_LISTEN=... PORTAL_DIST=... PORTAL_API=... render-nginx.sh OUT_DIR}
: "${PORTAL_LISTEN:?PORTAL_LISTEN: the address and port nginx listens on (8080 or 127.0.0.1:8080)}"
: "${PORTAL_DIST:?PORTAL_DIST: the built portal (npm run build), an absolute path}"
: "${PORTAL_API:?PORTAL_API: the API upstream, such as http://127.0.0.1:8081}"
case $PORTAL_DIST in /*) ;; *) echo "PORTAL_DIST must be an absolute path, got $PORTAL_DIST" >&2; exit 2 ;; esac
case $PORTAL_API in http://* | https://*) ;; *) echo "PORTAL_API must start with http:// or https://, got $PORTAL_API" >&2; exit 2 ;; esac
headers="$PORTAL_DIST/_headers"
[ -f "$headers" ] || { echo "$headers is missing: build the portal first (npm run build)" >&2; exit 2; }

here=$(dirname "$0")
mkdir -p "$out/logs" "$out/temp"
export PORTAL_LISTEN PORTAL_DIST PORTAL_API
# Only these names: nginx's own $uri, $host... stay as they are.
envsubst '${PORTAL_LISTEN} ${PORTAL_DIST} ${PORTAL_API}' <"$here/nginx.conf.template" >"$out/nginx.conf"

# The `/*` rule of _headers: its indented `Name: value` lines. A value nginx would read otherwise
# than written (a double quote, a backslash, a $) stops the script.
awk -v hsts="${PORTAL_HSTS:-0}" '
  /^[ \t]*(#|$)/ { next }
  /^[^ \t]/ { every = ($0 == "/*"); next }
  every {
    line = $0
    sub(/^[ \t]+/, "", line)
    name = line; sub(/:.*$/, "", name)
    value = line; sub(/^[^:]*:[ \t]*/, "", value)
    if (value ~ /["\\$]/) { print "render-nginx.sh: cannot write " name " for nginx: " value > "/dev/stderr"; exit 2 }
    printf "proxy_hide_header %s;\nadd_header %s \"%s\" always;\n", name, name, value
    found = 1
  }
  END {
    if (!found) { print "render-nginx.sh: _headers has no headers for /*" > "/dev/stderr"; exit 2 }
    print "proxy_hide_header Strict-Transport-Security;"
    if (hsts == "1") print "add_header Strict-Transport-Security \"max-age=31536000; includeSubDomains\" always;"
    # One request id for every answer, the one nginx passes to the API (its log names it too).
    print "proxy_hide_header X-Request-Id;"
    print "add_header X-Request-Id $request_id always;"
  }
' "$headers" >"$out/portal-headers.conf"
echo "Wrote $out/nginx.conf and $out/portal-headers.conf; start with: nginx -p $out -c nginx.conf -e stderr"
