import { createHash } from 'node:crypto'
import type { Hasher } from '../engine/ports'

/** The engine's Hasher port over node:crypto. */
export const nodeHasher: Hasher = {
  sha256Hex: (data) => createHash('sha256').update(data, 'utf8').digest('hex'),
}
