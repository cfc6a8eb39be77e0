import type pg from 'pg';

/** A statement the driver sent: its text and its parameter values, as `EXPLAIN` is given them again. */
export interface CapturedStatement {
  text: string;
  values: readonly unknown[];
}

/** One node of a plan that reads a large relation whole. */
export interface WholeTableRead {
  /** The relation read: the table (a partition's own name for a partitioned table), or the index walked. */
  relation: string;
  /** `Seq Scan`, or an index scan with no index condition (it walks the whole index). */
  node: string;
  /** Its estimated rows or entries (`pg_class.reltuples`). */
  rows: number;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** Statements `EXPLAIN` accepts and that may read a table (transaction control, locks and `SET` are not). */
const EXPLAINABLE = /^\s*(select|insert|update|delete|with)\b/i;

/** Whether `EXPLAIN` can be asked about this statement. */
export function isExplainable(text: string): boolean {
  return EXPLAINABLE.test(text);
}

function* nodes(plan: PlanNode): Generator<PlanNode> {
  yield plan;
  for (const child of plan.Plans ?? []) yield* nodes(child);
}

/**
 * The reads of a relation of more than `minRows` rows that visit all of it, in the plan PostgreSQL chooses for this
 * statement with these parameters: sequential scans, and index (only) scans without an index condition. Statements on
 * small tables are cheap whatever their plan, so a relation's size (its statistics: ANALYZE the tables first) decides.
 * `client` must not be inside a failed transaction; the statement is only planned, never run.
 */
export async function wholeTableReads(client: pg.ClientBase, statement: CapturedStatement, minRows: number): Promise<WholeTableRead[]> {
  if (!isExplainable(statement.text)) return [];
  const { rows } = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (FORMAT JSON) ${statement.text}`, [...statement.values]);
  const found: WholeTableRead[] = [];
  for (const node of nodes(rows[0]!['QUERY PLAN'][0]!.Plan)) {
    const relation = node['Relation Name'];
    if (!relation) continue;
    const indexWalk = (node['Node Type'] === 'Index Scan' || node['Node Type'] === 'Index Only Scan') && !node['Index Cond'];
    if (node['Node Type'] !== 'Seq Scan' && !indexWalk) continue;
    // A walk of a partial index reads its entries only: its own size counts, not the table's.
    const read = indexWalk ? node['Index Name']! : relation;
    const size = await client.query<{ n: string }>('SELECT reltuples::bigint AS n FROM pg_class WHERE relname = $1', [read]);
    const estimated = Number(size.rows[0]?.n ?? 0);
    if (estimated > minRows) found.push({ relation: read, node: node['Node Type'], rows: estimated });
  }
  return found;
}
