/** Tables of the webhooks feature (migration in `../migrations`). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface WebhooksTables {}
