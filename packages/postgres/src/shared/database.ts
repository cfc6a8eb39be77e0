/**
 * Every table of the service, for Kysely's type checking. Each area adds its own tables by
 * declaration merging in its `<area>-tables.ts` (`declare module '../shared/database.js' {
 * interface Database extends CampaignsTables {} }`), so this file lists no area.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Database {}
