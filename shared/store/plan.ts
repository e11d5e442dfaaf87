/** Plans of docs/api.md "v2 limits by plan": the names every store row and plan table use. */
export const PLANS = ['free', 'basic', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];
