// One database handle for both backends: embedded PGlite (no DATABASE_URL, the demo default) and a
// real PostgreSQL server (DATABASE_URL). Callers only ever see the drizzle PgDatabase type.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgDialect, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg, NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { currentSql } from './current-sql.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface Database {
  db: Db;
  /** 'pglite' for the embedded demo database, 'postgres' for a real server. */
  backend: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  /** True when the database answers and every migration of this build has been applied. */
  isCurrent(): Promise<boolean>;
  /** Connections of a real server's pool (the embedded database has one, never waiting). */
  poolStats(): PoolStats;
  /**
   * BEGIN a transaction held open until `end`, for work that spans more than one callback (an API
   * write: its handler, then its answer). `tx` nests as drizzle's own (savepoints).
   */
  begin(): Promise<OpenTransaction>;
  /**
   * LISTEN on a channel until the returned function is called. On a real server the listening
   * connection is its own and is made again after a failure (1 s doubling to 30 s); `onNotify`
   * is then called once with null, since notifications sent meanwhile were missed.
   */
  listen(channel: string, onNotify: (payload: string | null) => void, onError?: (error: Error) => void): Promise<() => Promise<void>>;
  /** The embedded database's whole data folder as a gzipped tar, consistent (PGlite only; a server is pg_dump's). */
  dump?(): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * The channel on which the ingester says mail was stored, processed or its mailbox changed state,
 * and on which a dispute's status change is told; the API's live events listen on it (several API
 * instances each listen).
 */
export const mailChannel = 'ejdesk_mail';
/** Told a remote's name when its releases change (a deploy, canary, promotion or rollback): open pages hear of it. */
export const releaseChannel = 'ejdesk_release';

/** Tell listeners on the channel, when the caller's transaction commits (one per payload and transaction). */
export const notifySql = (channel: string, payload = '') => sql`select pg_notify(${channel}, ${payload})`;

export interface OpenTransaction {
  tx: Db;
  /**
   * COMMIT (resolves once committed, rejects when the commit failed) or ROLLBACK. The first call
   * decides: a later one returns the same outcome, and asking to commit what was rolled back rejects.
   */
  end(commit: boolean): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres:// URL of a real server; when absent the embedded PGlite at dataDir is used. */
  url?: string | undefined;
  /** Folder of the embedded database; omit for an in-memory one (tests). */
  dataDir?: string | undefined;
  /** Pool size for a real server. */
  poolSize?: number;
  /** How long a query waits for a pooled connection (or a new one) before failing: 5 s by default. */
  connectTimeoutMs?: number;
  /** A statement running longer is cancelled by the server (API requests); none by default (CLIs). */
  statementTimeoutMs?: number;
  /**
   * Commit without waiting for the WAL flush, for every transaction of this handle (the mail
   * ingester's own process). Safe there: a transaction lost in a database crash takes its
   * checkpoint with it, so its messages are fetched (or processed) again, and storing is
   * idempotent. It saves a disk flush per message, most of the cost of a small message.
   */
  asynchronousCommit?: boolean;
  /** The embedded database only: start from this data folder (a gzipped tar from dump()), into an empty dataDir. */
  loadDataDir?: Buffer;
  /** Called when an idle pooled connection fails (server restart, network); the pool drops it. */
  onConnectionError?: (error: Error) => void;
}

const migrationsFolder = fileURLToPath(new URL('../migrations', import.meta.url));

/** The newest migration of this build, as drizzle records it (the journal entry's `when`). */
const newestMigration = (): number => {
  const journal = JSON.parse(readFileSync(`${migrationsFolder}/meta/_journal.json`, 'utf8')) as { entries: { when: number }[] };
  return Math.max(...journal.entries.map((e) => e.when));
};

async function migrationsApplied(db: Db): Promise<boolean> {
  const result = (await db.execute(sql`select coalesce(max(created_at), 0)::text as newest from drizzle.__drizzle_migrations`)) as unknown as {
    rows: { newest: string }[];
  };
  return Number(result.rows[0]?.newest ?? 0) >= newestMigration();
}

/** The current SQL functions and trigger functions, each domain's functions.sql (their one definition). */
export const derivedSql = currentSql;

/**
 * Run the migrations, then apply the domains' functions.sql (under a lock, so API processes
 * starting together do not replace the same functions at once), then ANALYZE when any migration was applied: one may add
 * indexes or backfill rows, and the planner needs statistics for them. `query` runs one statement
 * and `exec` a script, on the migrating connection.
 */
/** Whether the connected role owns none of the tables (a database with none yet is its to migrate). */
async function ownsNothing(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ tables: number; owned: number }>(
    `select count(*)::int as tables, count(*) filter (where pg_has_role(current_user, c.relowner, 'USAGE'))::int as owned
     from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ('r', 'p')`,
  );
  return rows[0]!.tables > 0 && rows[0]!.owned === 0;
}

async function migrateThenAnalyze(
  query: (text: string) => Promise<{ rows: unknown[] }>,
  exec: (script: string) => Promise<unknown>,
  migrate: () => Promise<unknown>,
): Promise<void> {
  const applied = async () => {
    const result = await query('select count(*)::int as n from drizzle.__drizzle_migrations').catch(() => ({ rows: [{ n: 0 }] }));
    return Number((result.rows[0] as { n: number }).n);
  };
  const before = await applied();
  await migrate();
  await exec(`begin;\nselect pg_advisory_xact_lock(727001);\n${derivedSql}\ncommit;`);
  if ((await applied()) !== before) await query('analyze');
}

export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  if (options.url) {
    // No connection is made here: a server that is down at start is waited for by the caller, and
    // every connection is made (and remade after a failure) on demand.
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      idleTimeoutMillis: 30_000,
      keepAlive: true,
      // The API's handle: a statement's bound, and a transaction left idle a minute (a write whose
      // answer never came) is ended by the server rather than holding its locks and connection.
      ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs, idle_in_transaction_session_timeout: 60_000 } : {}),
      // JIT compiling off: the desk's statements are short reads, and a plan the planner costs
      // high (five text filters over a week of records) spent 35 of its 50 ms compiling.
      options: ['-c jit=off', ...(options.asynchronousCommit ? ['-c synchronous_commit=off'] : [])].join(' '),
    });
    // A connection the server ends (restart, failover, pg_terminate_backend) emits 'error'; with no
    // listener that would end the process. pg-pool listens to its idle clients only (not while one
    // is checked out, inside a transaction between two statements), so every client keeps a
    // listener of ours for its whole life, which reports it. The failed statement still fails, and
    // the client is discarded when it is released with that error.
    pool.on('connect', (client) => client.on('error', (error) => options.onConnectionError?.(error)));
    // The pool repeats an idle client's error as its own: already reported by the client's listener.
    pool.on('error', () => undefined);
    const db = drizzlePg({ client: pool, schema });
    return {
      db: db as unknown as Db,
      backend: 'postgres',
      async migrate() {
        // Migrations may build indexes on large tables: their own connection, with no statement timeout.
        const client = new pg.Client({ connectionString: options.url, connectionTimeoutMillis: 5_000 });
        client.on('error', (error) => options.onConnectionError?.(error));
        await client.connect();
        try {
          // A role that owns nothing here (the API's own, docs/operations.md) may not migrate: it
          // starts on a database its owner has migrated to this build, and is told so otherwise.
          if (await ownsNothing(client)) {
            if (!(await migrationsApplied(drizzlePg({ client, schema }) as unknown as Db)))
              throw new Error(
                'The database role owns no table here, so it cannot migrate the database to this build: run `pnpm --filter @ejdesk/api migrate` as the database owner, then start again.',
              );
            return;
          }
          await migrateThenAnalyze(
            (text) => client.query(text),
            (script) => client.query(script),
            () => migratePg(drizzlePg({ client, schema }), { migrationsFolder }),
          );
        } finally {
          await client.end().catch(() => undefined);
        }
      },
      isCurrent: () => migrationsApplied(db as unknown as Db),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      // drizzle's own transaction() leaves a client out of the pool for good when BEGIN fails (a
      // connection the server just ended): here every failure releases it with its error.
      async begin() {
        const client = await pool.connect();
        try {
          await client.query('begin');
        } catch (error) {
          client.release(error as Error);
          throw error;
        }
        const { dialect, session } = db as unknown as { dialect: PgDialect; session: { schema: unknown; options: object } };
        const txSession = new NodePgSession(client, dialect, session.schema as never, session.options);
        const tx = new NodePgTransaction(dialect, txSession, session.schema as never) as unknown as Db;
        return settledOnce(tx, async (commit) => {
          try {
            await client.query(commit ? 'commit' : 'rollback');
            client.release();
          } catch (error) {
            client.release(error as Error);
            throw error;
          }
        });
      },
      listen: (channel, onNotify, onError) => listenPg(options.url!, channel, onNotify, onError),
      close: () => pool.end(),
    };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // Loaded only here: PGlite's module costs a process on a real server ~25 MB it would never use.
  const [{ PGlite }, { pg_trgm }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const client = await PGlite.create(options.dataDir ?? 'memory://', {
    extensions: { pg_trgm },
    ...(options.loadDataDir && { loadDataDir: new Blob([new Uint8Array(options.loadDataDir)]) }),
  });
  if (options.asynchronousCommit) await client.exec('set synchronous_commit = off');
  const db = drizzlePglite({ client, schema });
  return {
    db: db as unknown as Db,
    backend: 'pglite',
    migrate: () =>
      migrateThenAnalyze(
        (text) => client.query(text),
        (script) => client.exec(script),
        () => migratePglite(db, { migrationsFolder }),
      ),
    isCurrent: () => migrationsApplied(db as unknown as Db),
    poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
    // PGlite's transaction takes its one connection for a callback: held open until `end` decides.
    begin: () =>
      new Promise<OpenTransaction>((opened, failed) => {
        let decide: (commit: boolean) => void = () => undefined;
        const decided = new Promise<boolean>((resolve) => (decide = resolve));
        const ended = db
          .transaction(async (tx) => {
            opened(
              settledOnce(tx as unknown as Db, async (commit) => {
                decide(commit);
                await ended;
              }),
            );
            if (!(await decided)) throw rolledBack;
          })
          .catch((error: unknown) => {
            if (error !== rolledBack) throw error;
          });
        ended.catch(failed);
      }),
    async listen(channel, onNotify) {
      const unlisten = await client.listen(channel, (payload) => onNotify(payload));
      return unlisten;
    },
    // Taken between statements (PGlite runs one at a time), so the copy is of one moment.
    dump: async () => Buffer.from(await (await client.dumpDataDir('gzip')).arrayBuffer()),
    close: () => client.close(),
  };
}

const rolledBack = Symbol('rolled back');

/** An open transaction whose first `end` decides; a commit asked after a rollback rejects. */
function settledOnce(tx: Db, end: (commit: boolean) => Promise<void>): OpenTransaction {
  let outcome: { commit: boolean; done: Promise<void> } | undefined;
  return {
    tx,
    end(commit) {
      outcome ??= { commit, done: end(commit) };
      if (commit && !outcome.commit) return Promise.reject(new Error('The transaction was rolled back already.'));
      return outcome.done;
    },
  };
}

/** A LISTEN connection of its own, made again after any failure until stopped. */
async function listenPg(
  url: string,
  channel: string,
  onNotify: (payload: string | null) => void,
  onError?: (error: Error) => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const connect = async (delay: number, again: boolean): Promise<void> => {
    if (stopped) return;
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, keepAlive: true });
    let failed = false;
    const fail = (error: Error) => {
      if (failed || stopped) return;
      failed = true;
      onError?.(error);
      void next.end().catch(() => undefined);
      retry = setTimeout(() => void connect(Math.min(delay * 2, 30_000), true), delay);
    };
    next.on('error', fail);
    next.on('end', () => fail(new Error('the listening connection ended')));
    next.on('notification', (message) => message.channel === channel && onNotify(message.payload ?? ''));
    try {
      await next.connect();
      await next.query(`listen ${pg.escapeIdentifier(channel)}`);
      // Stopped while connecting: the stop found no client to end, so this one is ended here.
      if (stopped) {
        await next.end().catch(() => undefined);
        return;
      }
      client = next;
      if (again) onNotify(null);
    } catch (error) {
      fail(error as Error);
    }
  };
  await connect(1_000, false);
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}

/** Rows of a raw SQL query; both drivers answer `{ rows }`. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** What db.execute does with a query, its statement named (drizzle-orm/pg-core's PgDatabase.execute). */
type Preparing = {
  dialect: PgDialect;
  session: { prepareQuery(query: { sql: string; params: unknown[] }, fields: undefined, name: string, arrayMode: false): { execute(): Promise<unknown> } };
};

/**
 * Rows of a raw SQL query run as the named statement `name`, as db.execute runs it otherwise: after
 * its first uses on a connection PostgreSQL keeps one plan for it instead of planning each asking.
 * Only for a query whose text never changes (its values are parameters), asked on every page.
 */
export async function namedRows<T>(db: Db, name: string, query: SQL): Promise<T[]> {
  const { dialect, session } = db as unknown as Preparing;
  const result = (await session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false).execute()) as { rows: T[] };
  return result.rows;
}

/** The texts given a statement name by rowsOfKeptPlan, per process, and how many at most. */
const keptPlanNames = new Map<string, string>();
const KEPT_PLANS = 100;

/**
 * Rows of a query whose text is one of a few shapes (its values parameters, its LIMIT written in):
 * each text gets a statement name of its own, so each connection keeps its plan (about 140 KB for
 * one over every month's partition). Past KEPT_PLANS texts a process plans each asking anew.
 */
export async function rowsOfKeptPlan<T>(db: Db, query: SQL): Promise<T[]> {
  const { dialect } = db as unknown as Preparing;
  const text = dialect.sqlToQuery(query).sql;
  let name = keptPlanNames.get(text);
  if (!name && keptPlanNames.size < KEPT_PLANS) {
    name = `kept_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    keptPlanNames.set(text, name);
  }
  return name ? namedRows<T>(db, name, query) : queryRows<T>(db, query);
}

const unavailableCodes = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);
const unavailableMessages =
  /timeout exceeded when trying to connect|Connection terminated|connection error and is not queryable|Client was closed and is not queryable|Cannot use a pool after calling end/i;

/**
 * Whether an error (or one it wraps: drizzle wraps the driver's) means the database could not be
 * reached or dropped the connection: a condition to answer with 503 and retry, not a bug.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (code.startsWith('08') || unavailableCodes.has(code))) return true;
    if (typeof message === 'string' && unavailableMessages.test(message)) return true;
  }
  return false;
}

/** Whether the server cancelled a statement for running past statement_timeout. */
export function isStatementTimeout(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '57014') return true;
  }
  return false;
}
