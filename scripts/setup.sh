#!/usr/bin/env bash
# Installs what the embedded stack needs and reuses what is there. Safe to run every time.
#   - Debian packages: tesseract-ocr (+eng, osd), poppler-utils; postgresql when none answers.
#   - Temporal CLI and MinIO, built with `go install` into $DISTILL_TOOLS_DIR/bin (outside the clone).
#   - The Prisma client (generated/), then database migrations when Postgres answers.
set -euo pipefail
cd "$(dirname "$0")/.."

TOOLS_DIR="${DISTILL_TOOLS_DIR:-$HOME/.cache/distill}"
BIN="$TOOLS_DIR/bin"
mkdir -p "$BIN"
say() { printf '[setup] %s\n' "$*" >&2; }
die() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

SUDO=""
if [ "$(id -u)" != 0 ]; then command -v sudo >/dev/null && SUDO="sudo -n"; fi
apt_updated=0
apt_install() {
  command -v apt-get >/dev/null || die "missing $*; install them with your package manager"
  if [ $apt_updated = 0 ]; then $SUDO apt-get update -qq >&2 || die "apt-get update failed"; apt_updated=1; fi
  say "installing Debian packages: $*"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >&2 || die "could not install $*"
}

# --- OCR and rasterising -------------------------------------------------------
need=()
command -v tesseract >/dev/null || need+=(tesseract-ocr)
command -v pdftoppm >/dev/null || need+=(poppler-utils)
if command -v tesseract >/dev/null; then
  langs=$(tesseract --list-langs 2>/dev/null || true)
  grep -qx eng <<<"$langs" || need+=(tesseract-ocr-eng)
  grep -qx osd <<<"$langs" || need+=(tesseract-ocr-osd)
  # Scripts the OCR engine re-reads pages in when it detects them (see activities/documents/ocr).
  for lang in spa jpn heb; do grep -qx $lang <<<"$langs" || need+=(tesseract-ocr-$lang); done
else
  need+=(tesseract-ocr-eng tesseract-ocr-osd tesseract-ocr-spa tesseract-ocr-jpn tesseract-ocr-heb)
fi
[ ${#need[@]} -eq 0 ] || apt_install "${need[@]}"

# --- PostgreSQL ----------------------------------------------------------------
db_url="${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/distill}"
if ! pg_isready -q -d "$db_url" 2>/dev/null; then
  if [ -z "${DATABASE_URL:-}" ]; then
    installed_pg=0
    if ! command -v pg_ctlcluster >/dev/null; then apt_install postgresql; installed_pg=1; fi
    cluster=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -1)
    [ -n "$cluster" ] && { $SUDO pg_ctlcluster --skip-systemctl-redirect "$cluster" main start 2>/dev/null || true; }
    for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
    pg_isready -q -h 127.0.0.1 -p 5432 || die "PostgreSQL is not answering on 127.0.0.1:5432"
    # The embedded default connects as postgres without a password over TCP.
    if ! psql -w -h 127.0.0.1 -U postgres -c 'select 1' -qtA >/dev/null 2>&1; then
      hba="/etc/postgresql/$cluster/main/pg_hba.conf"
      if [ $installed_pg = 1 ] && [ -f "$hba" ]; then
        # A cluster this script just installed serves nothing else yet: let user postgres in
        # from this machine over TCP without a password, as the default DATABASE_URL expects.
        say "allowing local TCP logins as postgres without a password in $hba (set DATABASE_URL to use a password instead)"
        $SUDO sed -i '1i host all postgres 127.0.0.1/32 trust' "$hba"
        $SUDO pg_ctlcluster --skip-systemctl-redirect "$cluster" main reload
        psql -w -h 127.0.0.1 -U postgres -c 'select 1' -qtA >/dev/null 2>&1 || die "PostgreSQL still refuses postgres@127.0.0.1; set DATABASE_URL"
      else
        say "note: local TCP logins need trust auth for user postgres (see README), or set DATABASE_URL"
      fi
    fi
  else
    say "warning: DATABASE_URL does not answer yet"
  fi
fi

# --- Go-built tools ------------------------------------------------------------
go_build() { # name module
  local name=$1 module=$2
  command -v go >/dev/null || die "$name is not installed and Go (>= 1.24) is missing to build it.
  Install Go from your package manager or go.dev/dl, or put a release binary of $name on PATH
  (or name it with ${name^^}_BIN), then run this again."
  say "building $name with go install (a few minutes, once; cached in $BIN)"
  GOBIN="$BIN" GOFLAGS=-mod=mod go install "$module" >&2 || die "go install $module failed"
}
find_tool() { # name envvar module
  local name=$1 var=$2 module=$3 path="${!2:-}"
  if [ -n "$path" ]; then [ -x "$path" ] || die "$var=$path is not an executable"; return; fi
  command -v "$name" >/dev/null && return
  [ -x "$BIN/$name" ] && return
  go_build "$name" "$module"
}
if [ -z "${TEMPORAL_ADDRESS:-}" ]; then
  find_tool temporal TEMPORAL_BIN github.com/temporalio/cli/cmd/temporal@v1.5.1
fi
if [ -z "${S3_ENDPOINT:-}" ]; then
  find_tool minio MINIO_BIN github.com/minio/minio@latest
fi

# --- Node side -----------------------------------------------------------------
[ -d node_modules ] || die "run 'npm ci' first"
if [ ! -f generated/prisma/index.js ] || [ prisma/schema.prisma -nt generated/prisma/index.js ]; then
  say "generating the Prisma client"
  # With DATABASE_URL unset the Prisma CLI tries to download an engine (and fails offline).
  export DATABASE_URL="$db_url"
  npx --no-install prisma generate >/dev/null 2>&1 || npx --no-install prisma generate >&2
fi
say "ready"
