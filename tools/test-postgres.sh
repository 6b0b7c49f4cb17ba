#!/usr/bin/env bash
# Start Debian's PostgreSQL for the test suite and print the URL the tests read from
# CYCLADES_TEST_PG. Needs root (apt-get, pg_ctlcluster); prints nothing and exits 1 without it.
#   export CYCLADES_TEST_PG="$(tools/test-postgres.sh)"
set -euo pipefail
if [ "$(id -u)" != 0 ]; then
    echo "PostgreSQL for the tests needs root (apt-get, pg_ctlcluster)" >&2
    exit 1
fi
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
    (apt-get update -qq && apt-get install -y -qq postgresql >/dev/null) >&2
fi
version=$(ls /usr/lib/postgresql | sort -n | tail -n 1)
if ! pg_lsclusters -h | grep -q "^$version main"; then
    pg_createcluster "$version" main >&2
fi
pg_ctlcluster "$version" main start >&2 2>/dev/null || true   # already running is fine
for _ in $(seq 1 50); do
    su postgres -c "psql -qtAc 'select 1'" >/dev/null 2>&1 && break
    sleep 0.2
done
su postgres -c "psql -qtAc \"select 1 from pg_roles where rolname='cyclades'\"" | grep -q 1 \
    || su postgres -c "psql -qc \"create role cyclades login password 'cyclades' createdb\"" >&2
su postgres -c "psql -qtAc \"select 1 from pg_database where datname='cyclades_test'\"" | grep -q 1 \
    || su postgres -c "createdb -O cyclades cyclades_test" >&2
port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $3}')
echo "postgresql+psycopg://cyclades:cyclades@127.0.0.1:${port}/cyclades_test"
