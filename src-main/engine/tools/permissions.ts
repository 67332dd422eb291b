/**
 * The permission engine: for each tool call the model makes, allow it, ask the user, or deny it with a reason the
 * model can act on. Modes are enforced here, not by the prompt.
 *
 * Order of checks (first match wins):
 *   1. unknown tool → deny
 *   2. plan mode and the tool is not read-only → deny, before any rule or even the input is looked at
 *   3. input invalid → deny (with the schema's complaint)
 *   4. a path that leaves the project root (by its text) → deny; the node door re-checks real paths
 *   5. a deny rule matches → deny
 *   6. read-only tool → allow
 *   7. auto: bash on the built-in deny list → deny; anything else → allow
 *   8. build: an allow rule covers the call → allow; otherwise ask, offering "always" rules
 */
import { commandCoveredBy, findDangerousCommand, findMatchingPattern, ruleIneligibility, suggestCommandPatterns, type DataFolderGuard } from './command-rules'
import { checkGlobPattern, lexicalProjectPath } from './paths'
import type { ParsedToolCall } from './schemas'
import { parseCommand } from './shell-words'
import { getToolSpec, TOOL_SPECS } from './specs'
import { assertNever, type ToolName } from './types'
import picomatch from 'picomatch/posix'
import type { ChangePreview } from './preview'

export type PermissionMode = 'plan' | 'build' | 'auto'
export const DEFAULT_PERMISSION_MODE: PermissionMode = 'build'

/**
 * One rule. `pattern` means, by tool: bash — a command word prefix (`npm test`); file tools — a glob over the path
 * relative to the root (`src/**`); glob — the glob pattern itself; remember — the scope; skill — the name;
 * `*` — any call of that tool.
 */
export interface PermissionRule {
  readonly tool: ToolName
  readonly pattern: string
  /** For deny rules: told to the model. */
  readonly reason?: string
}

export interface PermissionRules {
  readonly allow: ReadonlyArray<PermissionRule>
  readonly deny: ReadonlyArray<PermissionRule>
}

export const NO_RULES: PermissionRules = { allow: [], deny: [] }

export interface PermissionContext {
  /** The project root as the user chose it (absolute). */
  readonly root: string
  /** Loupe's data folder (absolute), when it has one on disk: a command naming it is on the deny list. */
  readonly dataDir?: string
  /** The user's home folder (absolute), to read `~/…` in a command. */
  readonly home?: string | null
}

/** The deny list's data folder guard for `ctx`, or undefined when the app keeps no data folder. */
function dataFolderGuard(ctx: PermissionContext): DataFolderGuard | undefined {
  return ctx.dataDir === undefined ? undefined : { dataDir: ctx.dataDir, home: ctx.home ?? null, cwd: ctx.root }
}

export type DenyCode =
  | 'unknown_tool'
  | 'invalid_input'
  | 'plan_mode'
  | 'outside_root'
  | 'deny_rule'
  | 'dangerous_command'
  | 'user_denied'

export type AllowVia = 'read_only' | 'allow_rule' | 'auto_mode' | 'user_once' | 'user_always'

export interface ApprovalRequest {
  readonly tool: ToolName
  /** One line for the prompt: "Run `npm test`", "Edit src/app.ts". */
  readonly summary: string
  /** Rules the user may accept with "always"; empty when the call can only be approved once. */
  readonly suggestedRules: ReadonlyArray<PermissionRule>
  /** Shown with the prompt when the call is on the built-in deny list or cannot be covered by a rule. */
  readonly warning: string | null
  /** For edit_file and write_file: the lines the call would change (the loop adds it from the executor). */
  readonly preview?: ChangePreview
}

export type PermissionDecision =
  | { readonly kind: 'allow'; readonly via: AllowVia; readonly rules: ReadonlyArray<PermissionRule> }
  | { readonly kind: 'ask'; readonly request: ApprovalRequest }
  | { readonly kind: 'deny'; readonly code: DenyCode; readonly reason: string; readonly rule: PermissionRule | null }

export interface ToolCallInput {
  readonly name: string
  readonly input: unknown
}

function deny(code: DenyCode, reason: string, rule: PermissionRule | null = null): PermissionDecision {
  return { kind: 'deny', code, reason, rule }
}

/** The text rules are matched against, and where it is a path, its lexical check. */
function subjectOf(call: ParsedToolCall, root: string): { readonly subject: string; readonly outside: string | null } {
  const path = (p: string) => {
    const checked = lexicalProjectPath(root, p)
    return checked.ok ? { subject: checked.relative, outside: null } : { subject: p, outside: checked.reason }
  }
  switch (call.name) {
    case 'read_file':
    case 'list_dir':
    case 'edit_file':
    case 'write_file':
      return path(call.input.path)
    case 'grep':
      return path(call.input.path ?? '.')
    case 'glob': {
      const checked = checkGlobPattern(call.input.pattern)
      return { subject: call.input.pattern, outside: checked.ok ? null : checked.reason }
    }
    case 'bash':
      return { subject: call.input.command, outside: null }
    case 'remember':
      return { subject: call.input.scope, outside: null }
    case 'skill':
      return { subject: call.input.name, outside: null }
    case 'todo_write':
    case 'compact':
      return { subject: '', outside: null }
    default:
      return assertNever(call)
  }
}

function matchesPathGlob(pattern: string, path: string): boolean {
  return pattern === path || picomatch(pattern, { dot: true })(path)
}

function ruleMatches(rule: PermissionRule, call: ParsedToolCall, subject: string): boolean {
  if (rule.tool !== call.name) return false
  if (rule.pattern === '*') return true
  switch (call.name) {
    case 'bash':
      return findMatchingPattern(parseCommand(subject), [rule.pattern]) !== null
    case 'read_file':
    case 'list_dir':
    case 'edit_file':
    case 'write_file':
    case 'grep':
      return matchesPathGlob(rule.pattern, subject)
    case 'glob':
    case 'remember':
    case 'skill':
    case 'todo_write':
    case 'compact':
      return rule.pattern === subject
    default:
      return assertNever(call)
  }
}

function allowedByRules(call: ParsedToolCall, subject: string, allow: ReadonlyArray<PermissionRule>): ReadonlyArray<PermissionRule> {
  const mine = allow.filter((rule) => rule.tool === call.name)
  if (call.name !== 'bash') return mine.filter((rule) => ruleMatches(rule, call, subject)).slice(0, 1)
  if (mine.some((rule) => rule.pattern === '*')) return mine.filter((rule) => rule.pattern === '*').slice(0, 1)
  const parsed = parseCommand(subject)
  return commandCoveredBy(parsed, mine.map((rule) => rule.pattern)) ? mine : []
}

function dirname(path: string): string {
  const slash = path.lastIndexOf('/')
  return slash === -1 ? '.' : path.slice(0, slash)
}

function approvalRequest(call: ParsedToolCall, subject: string, allow: ReadonlyArray<PermissionRule>, guard: DataFolderGuard | undefined): ApprovalRequest {
  switch (call.name) {
    case 'bash': {
      const parsed = parseCommand(subject)
      const danger = findDangerousCommand(subject, guard)
      const existing = allow.filter((rule) => rule.tool === 'bash').map((rule) => rule.pattern)
      const ineligible = ruleIneligibility(parsed)
      return {
        tool: 'bash',
        summary: `Run \`${subject}\``,
        suggestedRules: danger === null ? suggestCommandPatterns(parsed, existing).map((pattern) => ({ tool: 'bash', pattern })) : [],
        warning:
          danger !== null
            ? `This command is on the deny list: ${danger.reason}.`
            : ineligible !== null
              ? `Can only be approved once: ${ineligible}.`
              : null,
      }
    }
    case 'edit_file':
    case 'write_file': {
      const folder = dirname(subject)
      const pattern = folder === '.' ? subject : `${folder}/**`
      return {
        tool: call.name,
        summary: `${call.name === 'edit_file' ? 'Edit' : 'Write'} ${subject}`,
        suggestedRules: [{ tool: call.name, pattern }],
        warning: null,
      }
    }
    case 'remember':
      return {
        tool: 'remember',
        summary: `Save to ${call.input.scope} memory: ${call.input.fact}`,
        suggestedRules: [{ tool: 'remember', pattern: call.input.scope }],
        warning: null,
      }
    case 'read_file':
    case 'list_dir':
    case 'glob':
    case 'grep':
    case 'skill':
    case 'todo_write':
    case 'compact':
      // Read-only tools are allowed before any question is asked; reaching here is a classification change.
      return { tool: call.name, summary: `Use ${call.name}`, suggestedRules: [{ tool: call.name, pattern: '*' }], warning: null }
    default:
      return assertNever(call)
  }
}

const READ_ONLY_TOOLS = TOOL_SPECS.filter((spec) => spec.readOnly).map((spec) => spec.name)

export function decidePermission(
  call: ToolCallInput,
  mode: PermissionMode,
  rules: PermissionRules,
  ctx: PermissionContext,
): PermissionDecision {
  const spec = getToolSpec(call.name)
  if (spec === undefined) {
    return deny('unknown_tool', `There is no tool named "${call.name}". Available tools: ${TOOL_SPECS.map((s) => s.name).join(', ')}.`)
  }
  if (mode === 'plan' && !spec.readOnly) {
    return deny(
      'plan_mode',
      `Plan mode is read-only, so ${spec.name} is not available. Keep investigating with ${READ_ONLY_TOOLS.join(', ')}, ` +
        `then present your plan; the user can switch to build mode to carry it out.`,
    )
  }
  const parsedInput = spec.parse(call.input)
  if (!parsedInput.ok) return deny('invalid_input', `Invalid input for ${spec.name}:\n${parsedInput.error}`)
  const parsed = { name: spec.name, input: parsedInput.value } as ParsedToolCall
  const { subject, outside } = subjectOf(parsed, ctx.root)
  if (outside !== null) return deny('outside_root', outside)

  const denying = rules.deny.find((rule) => ruleMatches(rule, parsed, subject))
  if (denying !== undefined) {
    return deny(
      'deny_rule',
      `The user's permission rules forbid ${spec.name} for "${denying.pattern}"` +
        `${denying.reason === undefined ? '' : ` (${denying.reason})`}. Do not retry it; find another way or ask the user.`,
      denying,
    )
  }
  if (spec.readOnly) return { kind: 'allow', via: 'read_only', rules: [] }

  switch (mode) {
    case 'plan':
      return deny('plan_mode', `Plan mode is read-only, so ${spec.name} is not available.`)
    case 'auto': {
      const danger = parsed.name === 'bash' ? findDangerousCommand(parsed.input.command, dataFolderGuard(ctx)) : null
      if (danger !== null) {
        return deny(
          'dangerous_command',
          `Refused: ${danger.reason}. Commands like this are never run automatically; do not try to work around ` +
            `this. If it is really needed, explain why and ask the user to run it themselves.`,
        )
      }
      return { kind: 'allow', via: 'auto_mode', rules: [] }
    }
    case 'build': {
      const dangerous = parsed.name === 'bash' && findDangerousCommand(parsed.input.command, dataFolderGuard(ctx)) !== null
      const covering = dangerous ? [] : allowedByRules(parsed, subject, rules.allow)
      if (covering.length > 0) return { kind: 'allow', via: 'allow_rule', rules: covering }
      return { kind: 'ask', request: approvalRequest(parsed, subject, rules.allow, dataFolderGuard(ctx)) }
    }
    default:
      return assertNever(mode)
  }
}

export type ApprovalAnswer =
  | { readonly kind: 'once' }
  /** `rules` replaces the suggested rules (the user may have edited the pattern); they must be for the same tool. */
  | { readonly kind: 'always'; readonly rules?: ReadonlyArray<PermissionRule> }
  | { readonly kind: 'deny'; readonly reason?: string }

/** Turns the user's answer into the final decision and the rules to keep from now on. */
export function resolveApproval(
  request: ApprovalRequest,
  answer: ApprovalAnswer,
  rules: PermissionRules,
): { readonly decision: PermissionDecision; readonly rules: PermissionRules } {
  switch (answer.kind) {
    case 'once':
      return { decision: { kind: 'allow', via: 'user_once', rules: [] }, rules }
    case 'always': {
      const added = (answer.rules ?? request.suggestedRules).filter((rule) => rule.tool === request.tool)
      if (added.length === 0) return { decision: { kind: 'allow', via: 'user_once', rules: [] }, rules }
      const fresh = added.filter((rule) => !rules.allow.some((r) => r.tool === rule.tool && r.pattern === rule.pattern))
      return { decision: { kind: 'allow', via: 'user_always', rules: added }, rules: { ...rules, allow: [...rules.allow, ...fresh] } }
    }
    case 'deny': {
      const reason = answer.reason?.trim() ?? ''
      return {
        decision: deny(
          'user_denied',
          `The user declined this ${request.tool} call${reason === '' ? '.' : `: "${reason}".`} ` +
            `Do not retry it as is; adjust your approach or ask the user how to proceed.`,
        ),
        rules,
      }
    }
    default:
      return assertNever(answer)
  }
}
