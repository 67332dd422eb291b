/**
 * Git facts are read from the project's own `.git`, or from a worktree's or submodule's folder in its repository's
 * `.git` (docs/security.md), and nowhere else: a `gitdir:` pointer, a `commondir` or a ref name cannot send the
 * reads to an arbitrary folder.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { gitAdminFolderOwner, readGitFacts } from '../../../src-main/node/instructions/facts'
import { FIFOS, mkfifo, releaseFifo, within } from '../tools/fifo'
import { sandbox, type Sandbox } from './tmp'

const SHA = '1111111111111111111111111111111111111111'
const OTHER = '2222222222222222222222222222222222222222'

let box: Sandbox
beforeEach(() => {
  box = sandbox()
})
afterEach(() => {
  releaseFifo(join(box.root, '.git', 'HEAD'))
  box.cleanup()
})

describe('where git facts may be read from', () => {
  it('does not follow a gitdir pointer to an arbitrary folder', async () => {
    const elsewhere = join(box.outside, 'not-a-repo')
    box.write(join(elsewhere, 'HEAD'), 'ref: refs/heads/leaked\n')
    box.write(join(elsewhere, 'refs/heads/leaked'), SHA)
    box.write('.git', `gitdir: ${elsewhere}\n`)
    expect(await readGitFacts(box.root)).toBeNull()
  })

  it('follows a worktree pointer, but not a commondir that leads away from its repository', async () => {
    const repo = join(box.outside, 'main-repo/.git')
    box.write(join(repo, 'worktrees/wt/HEAD'), 'ref: refs/heads/wt-branch\n')
    box.write(join(repo, 'refs/heads/wt-branch'), SHA)
    box.write('.git', `gitdir: ${join(repo, 'worktrees/wt')}\n`)
    box.write(join(repo, 'worktrees/wt/commondir'), '../..\n')
    expect(await readGitFacts(box.root)).toEqual({ branch: 'wt-branch', head: SHA })

    const elsewhere = join(box.outside, 'refs-elsewhere')
    box.write(join(elsewhere, 'refs/heads/wt-branch'), OTHER)
    box.write(join(repo, 'worktrees/wt/commondir'), `${elsewhere}\n`)
    box.write(join(repo, 'refs/heads/wt-branch'), 'not a sha')
    expect(await readGitFacts(box.root)).toEqual({ branch: 'wt-branch', head: null })
  })

  it('follows a submodule pointer, names with slashes included', async () => {
    const repo = join(box.outside, 'super/.git')
    box.write(join(repo, 'modules/libs/core/HEAD'), `${SHA}\n`)
    box.write('.git', 'gitdir: ../outside/super/.git/modules/libs/core\n')
    expect(await readGitFacts(box.root)).toEqual({ branch: null, head: SHA })
  })

  it('does not read a ref whose name climbs out of the git folder', async () => {
    box.write(join(box.outside, 'x'), OTHER)
    box.write('.git/HEAD', 'ref: refs/heads/../../../../outside/x\n')
    expect(await readGitFacts(box.root)).toEqual({ branch: 'refs/heads/../../../../outside/x'.slice('refs/heads/'.length), head: null })
  })

  it('does not follow a .git link out of the root', async () => {
    box.write(join(box.outside, 'repo/HEAD'), 'ref: refs/heads/leaked\n')
    box.link('.git', join(box.outside, 'repo'))
    expect(await readGitFacts(box.root)).toBeNull()
  })

  it('does not follow a link inside .git out of it', async () => {
    box.write(join(box.outside, 'sha'), OTHER)
    box.write('.git/HEAD', 'ref: refs/heads/main\n')
    box.link('.git/refs/heads/main', join(box.outside, 'sha'))
    expect(await readGitFacts(box.root)).toEqual({ branch: 'main', head: null })
  })

  it.runIf(FIFOS)('answers at once when HEAD is a FIFO', async () => {
    box.write('.git/config', '')
    mkfifo(join(box.root, '.git', 'HEAD'))
    expect(await within(3_000, readGitFacts(box.root), 'readGitFacts')).toBeNull()
  })

  it('names the folders a gitdir pointer may lead to', () => {
    expect(gitAdminFolderOwner('/r/.git/worktrees/wt')).toBe('/r/.git')
    expect(gitAdminFolderOwner('/r/.git/modules/a')).toBe('/r/.git')
    expect(gitAdminFolderOwner('/r/.git/modules/a/modules/b')).toBe('/r/.git')
    expect(gitAdminFolderOwner('/r/.git/worktrees/wt/extra')).toBeNull()
    expect(gitAdminFolderOwner('/r/.git')).toBeNull()
    expect(gitAdminFolderOwner('/home/me/.ssh')).toBeNull()
    expect(gitAdminFolderOwner('/r/.git/objects')).toBeNull()
  })
})
