import type pg from 'pg';

/** A statement the driver sent: its text and its parameter values, as `EXPLAIN` is given them again. */
export interface CapturedStatement {
  text: string;
  values: readonly unknown[];
}

/** One node of a plan that reads many rows of a large relation. */
export interface WholeTableRead {
  /** The relation read: the table (a partition's own name for a partitioned table), or the index walked. */
  relation: string;
  /**
   * `Seq Scan`, or an index (only, bitmap) scan with no index condition (it walks the whole index), or a scan whose
   * condition still matches more than the limit of rows that nothing stops early.
   */
  node: string;
  /** Its estimated rows or entries (`pg_class.reltuples`), or for a scan matching many rows the rows it matches. */
  rows: number;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Plan Rows': number;
  Plans?: PlanNode[];
}

/** Statements `EXPLAIN` accepts and that may read a table (transaction control, locks and `SET` are not). */
const EXPLAINABLE = /^\s*(select|insert|update|delete|with)\b/i;

/** Whether `EXPLAIN` can be asked about this statement. */
export function isExplainable(text: string): boolean {
  return EXPLAINABLE.test(text);
}

/** Nodes between a Limit and a scan that do not keep the scan from stopping at the limit. */
const STREAMING = new Set(['Limit', 'Nested Loop', 'Merge Append', 'Append', 'Result', 'Subquery Scan', 'Memoize', 'Materialize']);

/** Every node with whether a Limit above it stops it early (no Sort, aggregate or hash in between). */
function* nodes(plan: PlanNode, limited = false): Generator<[PlanNode, boolean]> {
  yield [plan, limited];
  const below = plan['Node Type'] === 'Limit' || (limited && STREAMING.has(plan['Node Type']));
  for (const child of plan.Plans ?? []) yield* nodes(child, below);
}

const INDEX_WALKS = new Set(['Index Scan', 'Index Only Scan', 'Bitmap Index Scan']);

/**
 * The reads of a large relation in the plan PostgreSQL chooses for this statement with these parameters: sequential
 * scans and index (only, bitmap) scans without an index condition of a relation of more than `minRows` rows (statistics: ANALYZE
 * first), and with `{ manyRows: true }` also any scan of a large relation whose condition is estimated to match more than
 * `minRows` rows with no Limit to stop it (a count or a filter over all of a busy company's rows).
 * `client` must not be inside a failed transaction; the statement is only planned, never run.
 */
export async function wholeTableReads(
  client: pg.ClientBase,
  statement: CapturedStatement,
  minRows: number,
  options: { manyRows?: boolean } = {},
): Promise<WholeTableRead[]> {
  if (!isExplainable(statement.text)) return [];
  const { rows } = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (FORMAT JSON) ${statement.text}`, [...statement.values]);
  const found: WholeTableRead[] = [];
  const sizeOf = async (relation: string) =>
    Number((await client.query<{ n: string }>('SELECT reltuples::bigint AS n FROM pg_class WHERE relname = $1', [relation])).rows[0]?.n ?? 0);
  for (const [node, limited] of nodes(rows[0]!['QUERY PLAN'][0]!.Plan)) {
    const type = node['Node Type'];
    const relation = node['Relation Name'] ?? (type === 'Bitmap Index Scan' ? node['Index Name'] : undefined);
    if (!relation) continue;
    const indexWalk = INDEX_WALKS.has(type) && !node['Index Cond'];
    if (type === 'Seq Scan' || indexWalk) {
      // A walk of a partial index reads its entries only: its own size counts, not the table's.
      const read = indexWalk ? node['Index Name']! : relation;
      const estimated = await sizeOf(read);
      if (estimated > minRows) found.push({ relation: read, node: type, rows: estimated });
    } else if (options.manyRows && !limited && node['Plan Rows'] > minRows && (await sizeOf(relation)) > minRows) {
      found.push({ relation, node: `${type} of ~${Math.round(node['Plan Rows'])} rows`, rows: node['Plan Rows'] });
    }
  }
  return found;
}
