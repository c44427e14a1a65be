#!/usr/bin/env bash
# Installs the real servers and browser the test suite starts on loopback (npm test runs this
# first, as part of `pretest`): Dovecot for the IMAP source's tests, Debian's Chromium for
# the web UI's browser tests, and a JDK 17 with Maven for the OpenSearch cluster that the
# OpenSearch backend's tests build (cluster/) and start. Idempotent: nothing is installed
# when the binaries are there.
# Needs root and apt-get (a fresh machine of this project's kind has both); elsewhere it says
# what to install and stops, so a missing server is a clear error and never a skipped test.
set -euo pipefail
missing=()
command -v dovecot >/dev/null 2>&1 || [ -x /usr/sbin/dovecot ] || missing+=(dovecot-imapd)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v javac >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || missing+=(maven)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-test-services: the tests need the Debian packages: ${missing[*]} (install them, then rerun npm test)" >&2
  exit 1
fi
echo "install-test-services: installing ${missing[*]} from Debian" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# With recommends, as the tests were run here (Chromium recommends its fonts).
apt-get install -y -q "${missing[@]}" >/dev/null
