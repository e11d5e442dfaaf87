/**
 * Runs a document's shell examples the way a reader would, in one shell session on a fresh
 * `npm start`, without touching the machine: inside new network, mount and PID namespaces
 * (`unshare`), where
 *   - the loopback interface is private, so the examples' own addresses (localhost:8080) are
 *     used as printed and nothing can leave the machine;
 *   - the repository is seen through an overlay (/mnt/checkout), so files the examples create
 *     (report.pdf, SUMS, a rebuilt dist/) never reach the work tree;
 *   - /tmp is a private tmpfs (the examples' /tmp/… paths cannot collide with anything);
 *   - every process ends with the namespace's first process.
 * The embedded bundle (`dist/embedded.js`, what `npm start` runs) is started with DATA_DIR in
 * /tmp, and the key it prints at first start replaces the docs' placeholder `s224_…`; a document
 * that starts the service itself (`npm start &`) gets no second instance.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expectedAnswers, type ShellBlock } from './extract.js';

/** What the docs write for "the key printed at first start". */
export const KEY_PLACEHOLDER = /s224_(…|\.\.\.)/g;

const MARK = (name: string): string => `printf '\\n@@%s@@\\n' '${name}'`;

/** Markers around the list of files the examples left untracked in the checkout (segments() gives it as UNTRACKED_END's text; neither ends in START or END, the blocks' markers). */
export const UNTRACKED_START = 'UNTRACKED LISTING';
export const UNTRACKED_END = 'UNTRACKED LISTED';

export interface Answer {
  block: ShellBlock;
  id: string;
  text: string;
}

/** Whether the document starts the service itself. */
export function startsOwnServer(blocks: readonly ShellBlock[]): boolean {
  return blocks.some((b) => b.notRun === undefined && /^\s*npm start\b/m.test(b.code));
}

/** The session script: an instance (unless the document starts one), then every runnable block with markers. */
export function sessionScript(blocks: readonly ShellBlock[]): { script: string; answers: Answer[] } {
  const answers: Answer[] = [];
  const parts = [
    'set -o pipefail',
    'CHECKOUT="$PWD"',
    startsOwnServer(blocks)
      ? 'FIRST_START_KEY="(this document starts the service itself)"'
      : [
          'node dist/embedded.js >/tmp/sha224d-first-start.log 2>&1 &',
          'server=$!; deadline=$((SECONDS + 60))',
          "until grep -q '^API key: ' /tmp/sha224d-first-start.log; do",
          `  if [ "$SECONDS" -ge "$deadline" ] || ! kill -0 "$server" 2>/dev/null; then ${MARK('INSTANCE FAILED')}; cat /tmp/sha224d-first-start.log; exit 97; fi`,
          '  sleep 0.1',
          'done',
          'FIRST_START_KEY="$(sed -n \'s/^API key: //p\' /tmp/sha224d-first-start.log)"',
        ].join('\n'),
    // What is untracked before the examples run, so that only what they leave is reported.
    `git -C "$CHECKOUT" ls-files --others --exclude-standard > /tmp/sha224d-untracked-before`,
    'set -e',
    `trap 'printf "\\n@@FAILED %s: %s@@\\n" "$?" "$BASH_COMMAND"' ERR`,
  ];
  for (const block of blocks) {
    if (block.notRun !== undefined) continue;
    const lines = block.code.replace(KEY_PLACEHOLDER, '${FIRST_START_KEY}').split('\n');
    const found = expectedAnswers(block.code);
    const out: string[] = ['cd "$CHECKOUT"', MARK(`BLOCK ${block.line} START`)];
    for (let i = 0; i < lines.length; i += 1) {
      const answer = found.find((a) => a.startLine === i);
      if (answer) {
        const id = `${block.line}.${answers.length}`;
        answers.push({ block, id, text: answer.text });
        out.push(MARK(`ANSWER ${id}`));
        i = answer.endLine;
      } else {
        out.push(lines[i]!);
      }
    }
    out.push(MARK(`BLOCK ${block.line} END`));
    parts.push(out.join('\n'));
  }
  // Files the examples left in the checkout that git would offer to add (not ignored, not there before).
  parts.push(
    [
      MARK(UNTRACKED_START),
      `git -C "$CHECKOUT" ls-files --others --exclude-standard | { grep -vxF -f /tmp/sha224d-untracked-before || true; }`,
      MARK(UNTRACKED_END),
    ].join('\n'),
  );
  return { script: `${parts.join('\n')}\n`, answers };
}

export interface SessionResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const NAMESPACE_SETUP = `set -e
mount -t tmpfs -o size=4g sha224d-docs /mnt
mkdir /mnt/upper /mnt/work /mnt/checkout
mount -t overlay overlay -o "lowerdir=$1,upperdir=/mnt/upper,workdir=/mnt/work" /mnt/checkout
cp "$2" /mnt/session.sh
mount -t tmpfs -o size=4g sha224d-tmp /tmp
ip link set lo up
cd /mnt/checkout
exec bash /mnt/session.sh </dev/null`;

/** Runs `script` in the namespaces over a view of `root`; resolves when the session has ended. */
export async function runSession(root: string, script: string, timeoutMs: number): Promise<SessionResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sha224d-docs-'));
  const file = path.join(dir, 'session.sh');
  writeFileSync(file, script);
  const env: Record<string, string> = {
    PATH: `${process.env.PATH ?? '/usr/bin:/bin'}:/usr/sbin:/sbin`,
    HOME: process.env.HOME ?? '/root',
    LANG: 'C.UTF-8',
    DATA_DIR: '/tmp/sha224d-data',
    LOG_LEVEL: 'warn',
    // Documents that need JWTs say to run the service and the admin CLI with this set.
    JWT_SECRET: randomBytes(48).toString('base64'),
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  const asRoot = process.getuid?.() === 0 ? [] : ['--map-root-user'];
  const child = spawn(
    'unshare',
    ['--net', '--mount', '--pid', '--fork', '--kill-child', ...asRoot, 'bash', '-c', NAMESPACE_SETUP, 'sha224d-docs', root, file],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (c) => resolve(c));
    });
    return { code, stdout, stderr };
  } finally {
    clearTimeout(timer);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** stdout split at the markers: marker name → the text printed since the previous marker. */
export function segments(stdout: string): Array<{ marker: string; before: string }> {
  const found: Array<{ marker: string; before: string }> = [];
  const re = /\n@@(.+?)@@\n/g;
  let last = 0;
  for (let m = re.exec(stdout); m !== null; m = re.exec(stdout)) {
    found.push({ marker: m[1]!, before: stdout.slice(last, m.index) });
    last = m.index + m[0].length;
  }
  found.push({ marker: '(end)', before: stdout.slice(last) });
  return found;
}
