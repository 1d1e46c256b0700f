#!/usr/bin/env bash
# Generates the Prisma client into libs/db/src/generated/prisma.
# Why the env var: the Prisma CLI wants a native schema engine, which it downloads from a host
# this project's machines cannot reach. `prisma generate` never runs that engine (the client is
# TypeScript plus the wasm query compiler), so pointing PRISMA_SCHEMA_ENGINE_BINARY at any
# existing file stops the download and generation works offline. Migrations are plain SQL
# applied by dbmate, so the schema engine is never needed.
set -euo pipefail
cd "$(dirname "$0")/.."
export PRISMA_SCHEMA_ENGINE_BINARY="${PRISMA_SCHEMA_ENGINE_BINARY:-$(command -v node)}"
export PRISMA_HIDE_UPDATE_MESSAGE=1
exec npx prisma generate "$@"
