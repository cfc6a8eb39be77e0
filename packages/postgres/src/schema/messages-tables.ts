/** Tables of the messages feature (migration in `../migrations`). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface MessagesTables {}
