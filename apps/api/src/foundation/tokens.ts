/** Counts a company's active campaigns (bound by the campaigns module). */
export const ActiveCampaigns = Symbol.for('carteiro.api.ActiveCampaigns');
