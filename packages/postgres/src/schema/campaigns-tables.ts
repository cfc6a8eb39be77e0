/** Tables of the campaigns feature (migration in `../migrations`). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CampaignsTables {}
