/** Why an import refuses a file, in words that name what is wrong ("entry 12 (user_message): content is missing"). */
export class ImportError extends Error {}

export type Row = Record<string, unknown>

export const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v)
