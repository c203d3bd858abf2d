/** The environments the service knows (`ENVIRONMENT`); what each changes is in docs/configuration.md. */
export const ENVIRONMENTS = ['local', 'qa', 'staging', 'prod'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
