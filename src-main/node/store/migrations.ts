/**
 * Numbered schema migrations. Each runs once, in order, inside a transaction; `PRAGMA user_version` records the
 * last one applied. Never edit a migration that has shipped: add a new one.
 */
export interface Migration {
  readonly version: number
  readonly name: string
  readonly sql: string
  /**
   * The migration rebuilds tables (create the new shape, copy, drop, rename). Foreign keys are switched off around
   * it, as SQLite's documented procedure requires, and checked before it commits.
   */
  readonly rebuildsTables?: boolean
}

export const migrations: ReadonlyArray<Migration> = [
  {
    version: 1,
    name: 'projects and sessions',
    sql: `
      CREATE TABLE projects (
        id             TEXT PRIMARY KEY,
        name           TEXT NOT NULL,
        root           TEXT NOT NULL UNIQUE,
        created_at     INTEGER NOT NULL,
        last_opened_at INTEGER NOT NULL
      );
      CREATE TABLE sessions (
        id          TEXT PRIMARY KEY,
        project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        title       TEXT NOT NULL,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
      );
      CREATE INDEX sessions_by_project ON sessions(project_id, updated_at DESC);
    `,
  },
  {
    version: 2,
    name: 'entries, passes, content-addressed blocks',
    sql: `
      ALTER TABLE sessions ADD COLUMN state TEXT NOT NULL DEFAULT '{}';

      -- Append-only: an entry never changes once written. seq is gap-free per session.
      CREATE TABLE entries (
        id          TEXT PRIMARY KEY,
        session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq         INTEGER NOT NULL,
        at          INTEGER NOT NULL,
        kind        TEXT NOT NULL,
        -- The entry's JSON; large bodies (tool results, long answers) are stored raw-deflated as a BLOB.
        body        BLOB NOT NULL,
        UNIQUE (session_id, seq)
      );

      -- Each distinct text (a tool definition, a system block, a message, a skeleton, a raw response) once.
      -- encoding 'utf8': data is the text; 'deflate': the text compressed with raw deflate. size is the text's.
      CREATE TABLE blobs (
        hash      TEXT PRIMARY KEY,
        size      INTEGER NOT NULL,
        data      BLOB NOT NULL,
        encoding  TEXT NOT NULL DEFAULT 'utf8'
      );

      -- One row per request sent to the model. The request body is re-assembled from the skeleton and the
      -- segments: the first base_count segments are those of base_pass_id, the rest are in pass_blocks.
      CREATE TABLE passes (
        id              TEXT PRIMARY KEY,
        session_id      TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq             INTEGER NOT NULL,
        kind            TEXT NOT NULL,
        model           TEXT NOT NULL,
        status          TEXT NOT NULL,
        queued_at       INTEGER NOT NULL,
        first_byte_at   INTEGER,
        done_at         INTEGER,
        request_sha256  TEXT NOT NULL,
        request_bytes   INTEGER NOT NULL,
        skeleton_hash   TEXT NOT NULL REFERENCES blobs(hash),
        base_pass_id    TEXT REFERENCES passes(id),
        base_count      INTEGER NOT NULL DEFAULT 0,
        -- How many bases re-assembly walks through; capped (see passes.ts) so a read stays a few queries.
        chain_depth     INTEGER NOT NULL DEFAULT 0,
        segment_count   INTEGER NOT NULL,
        response_hash   TEXT REFERENCES blobs(hash),
        message_id      TEXT,
        stop_reason     TEXT,
        usage           TEXT,
        cost_usd        REAL,
        attempts        TEXT NOT NULL DEFAULT '[]',
        error           TEXT,
        plan_hash       TEXT REFERENCES blobs(hash),
        -- The cache attribution (src-main/engine/cache), as a blob: ~2 kB of JSON per pass, compressed and shared.
        attribution_hash TEXT REFERENCES blobs(hash),
        UNIQUE (session_id, seq)
      );
      CREATE INDEX passes_by_base ON passes(base_pass_id);

      CREATE TABLE pass_blocks (
        pass_id     TEXT NOT NULL REFERENCES passes(id) ON DELETE CASCADE,
        ordinal     INTEGER NOT NULL,
        blob_hash   TEXT NOT NULL REFERENCES blobs(hash),
        path        TEXT NOT NULL,
        -- Provenance JSON as a blob: a message's provenance is the same in every pass that carries it.
        provenance_hash TEXT NOT NULL REFERENCES blobs(hash),
        breakpoint  TEXT,
        PRIMARY KEY (pass_id, ordinal)
      );
    `,
  },
  {
    version: 3,
    name: 'pass source, session origin and parent (imported transcripts, captured requests)',
    sql: `
      -- Where a pass's request body came from: 'loupe' (sent by the app, exact wire bytes), 'proxy' (another agent's
      -- request recorded by the capture proxy, exact wire bytes), 'transcript' (reconstructed from a Claude Code
      -- transcript: the conversation part only, not wire bytes).
      ALTER TABLE passes ADD COLUMN source TEXT NOT NULL DEFAULT 'loupe';
      -- 'loupe', 'transcript' (imported from Claude Code) or 'captured' (the capture proxy's session per client).
      ALTER TABLE sessions ADD COLUMN origin TEXT NOT NULL DEFAULT 'loupe';
      -- What the session was made from, as JSON (the transcript file and its session id, or the proxy client).
      ALTER TABLE sessions ADD COLUMN origin_ref TEXT;
      -- A subagent or compaction call of an imported session points at the session that started it.
      ALTER TABLE sessions ADD COLUMN parent_session_id TEXT REFERENCES sessions(id) ON DELETE CASCADE;
      CREATE INDEX sessions_by_parent ON sessions(parent_session_id);
    `,
  },
  {
    version: 4,
    name: 'hashes as 32 raw bytes, segment rows without rowid',
    rebuildsTables: true,
    // A sha256 as 64 hex characters costs twice its 32 bytes in every row and again in every index that holds it;
    // hashes are ~40% of a session's metadata (two per segment row, five per pass, one per blob and its index).
    // The app still speaks hex: the store converts at its edge (blobs.ts hashKey / hashHex).
    sql: `
      CREATE TABLE blobs_v4 (
        hash      BLOB PRIMARY KEY,            -- sha256 of the text, 32 bytes
        size      INTEGER NOT NULL,
        data      BLOB NOT NULL,
        encoding  TEXT NOT NULL DEFAULT 'utf8'
      );
      INSERT INTO blobs_v4 (hash, size, data, encoding) SELECT unhex(hash), size, data, encoding FROM blobs;
      DROP TABLE blobs;
      ALTER TABLE blobs_v4 RENAME TO blobs;

      CREATE TABLE passes_v4 (
        id               TEXT PRIMARY KEY,
        session_id       TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq              INTEGER NOT NULL,
        kind             TEXT NOT NULL,
        model            TEXT NOT NULL,
        status           TEXT NOT NULL,
        queued_at        INTEGER NOT NULL,
        first_byte_at    INTEGER,
        done_at          INTEGER,
        request_sha256   BLOB NOT NULL,
        request_bytes    INTEGER NOT NULL,
        skeleton_hash    BLOB NOT NULL REFERENCES blobs(hash),
        base_pass_id     TEXT REFERENCES passes(id),
        base_count       INTEGER NOT NULL DEFAULT 0,
        chain_depth      INTEGER NOT NULL DEFAULT 0,
        segment_count    INTEGER NOT NULL,
        response_hash    BLOB REFERENCES blobs(hash),
        message_id       TEXT,
        stop_reason      TEXT,
        usage            TEXT,
        cost_usd         REAL,
        attempts         TEXT NOT NULL DEFAULT '[]',
        error            TEXT,
        plan_hash        BLOB REFERENCES blobs(hash),
        attribution_hash BLOB REFERENCES blobs(hash),
        source           TEXT NOT NULL DEFAULT 'loupe',
        UNIQUE (session_id, seq)
      );
      INSERT INTO passes_v4 SELECT id, session_id, seq, kind, model, status, queued_at, first_byte_at, done_at,
        unhex(request_sha256), request_bytes, unhex(skeleton_hash), base_pass_id, base_count, chain_depth, segment_count,
        unhex(response_hash), message_id, stop_reason, usage, cost_usd, attempts, error, unhex(plan_hash),
        unhex(attribution_hash), source
        FROM passes;
      DROP TABLE passes;
      ALTER TABLE passes_v4 RENAME TO passes;
      CREATE INDEX passes_by_base ON passes(base_pass_id);

      -- Without a rowid the primary key is the table itself: no second copy of (pass_id, ordinal) in an index.
      CREATE TABLE pass_blocks_v4 (
        pass_id         TEXT NOT NULL REFERENCES passes(id) ON DELETE CASCADE,
        ordinal         INTEGER NOT NULL,
        blob_hash       BLOB NOT NULL REFERENCES blobs(hash),
        path            TEXT NOT NULL,
        provenance_hash BLOB NOT NULL REFERENCES blobs(hash),
        breakpoint      TEXT,
        PRIMARY KEY (pass_id, ordinal)
      ) WITHOUT ROWID;
      INSERT INTO pass_blocks_v4 SELECT pass_id, ordinal, unhex(blob_hash), path, unhex(provenance_hash), breakpoint FROM pass_blocks;
      DROP TABLE pass_blocks;
      ALTER TABLE pass_blocks_v4 RENAME TO pass_blocks;
    `,
  },
  {
    version: 5,
    name: 'projects removed from the list',
    sql: `
      -- When the user took the project out of the sidebar (project.remove); null while it is listed. Its sessions are
      -- kept, and opening the folder again lists it again with them.
      ALTER TABLE projects ADD COLUMN hidden_at INTEGER;
    `,
  },
  {
    version: 6,
    name: 'prefix sizes counted',
    sql: `
      -- The real size of a prompt prefix (tools and system blocks) as the model service's count_tokens gave it, by the
      -- prefix's cache key (engine/cache/walk.ts): the attribution places reads with it (node/cache/prefix-counts.ts),
      -- and needs it again when a pass is attributed anew after a restart. The newest few thousand are kept.
      CREATE TABLE prefix_counts (
        key        TEXT PRIMARY KEY,
        tokens     INTEGER NOT NULL,
        counted_at INTEGER NOT NULL
      );
      CREATE INDEX prefix_counts_by_age ON prefix_counts(counted_at);
    `,
  },
]
