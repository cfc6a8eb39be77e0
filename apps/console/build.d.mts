/** The first page's JavaScript budget, gzip bytes (the build fails above it). */
export declare const JS_BUDGET_GZIP_BYTES: number;
/** Builds the console into `outDir` (default apps/console/dist); resolves with the hashed file names and the gzip size. */
export declare function buildConsole(options?: { outDir?: string; quiet?: boolean; budgetGzipBytes?: number }): Promise<{ outDir: string; jsFile: string; cssFile: string | undefined; jsGzipBytes: number }>;
