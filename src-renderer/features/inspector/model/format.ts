/** Number, money and time formats shared by the inspector's views. */

export function tokens(n: number): string {
  if (n >= 10_000) return `${(n / 1000).toFixed(n >= 100_000 ? 0 : 1)}k`
  return Math.round(n).toLocaleString('en-US')
}

export function usd(n: number | null): string {
  if (n === null) return '—'
  if (n === 0) return '$0'
  return n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(n < 1 ? 3 : 2)}`
}

export function ms(n: number | null): string {
  if (n === null) return '—'
  return n >= 10_000 ? `${(n / 1000).toFixed(1)} s` : n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${Math.round(n)} ms`
}

export function clock(at: number): string {
  const d = new Date(at)
  const pad = (x: number) => String(x).padStart(2, '0')
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
}

export function bytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(2)} MB`
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`
  return `${n} B`
}

export function shortModel(model: string): string {
  return model.replace(/^claude-/, '')
}
