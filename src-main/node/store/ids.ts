import { randomBytes } from 'node:crypto'

/**
 * Ids are a millisecond timestamp and random bits, base-36: they sort by creation time in the database and in
 * listings, and fit the contract's id pattern (letters, digits, _ and -).
 */
export function newId(prefix: string, now = Date.now()): string {
  return `${prefix}_${now.toString(36).padStart(9, '0')}${randomBytes(6).toString('hex')}`
}
