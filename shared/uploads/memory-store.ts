import { randomUUID } from 'node:crypto';
import { parseRecord, type ResumableRecord } from './record.js';
import type { ResumableStore } from './store.js';

/** Embedded mode's records and locks: one process serves every request, so a Map is the whole truth. */
export class MemoryResumableStore implements ResumableStore {
  readonly outlivesProcess = false;
  private readonly records = new Map<string, { json: string; keepUntil: number }>();
  private readonly locks = new Map<string, { token: string; until: number }>();

  constructor(
    private readonly lockMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  create(record: ResumableRecord, keepUntil: number): Promise<boolean> {
    this.forgetPast();
    if (this.live(record.id) !== undefined) return Promise.resolve(false);
    this.records.set(record.id, { json: JSON.stringify(record), keepUntil });
    return Promise.resolve(true);
  }

  get(id: string): Promise<ResumableRecord | undefined> {
    const entry = this.live(id);
    return Promise.resolve(entry === undefined ? undefined : parseRecord(entry.json));
  }

  lock(id: string): Promise<string | undefined> {
    const held = this.locks.get(id);
    if (held !== undefined && held.until > this.now()) return Promise.resolve(undefined);
    const token = randomUUID();
    this.locks.set(id, { token, until: this.now() + this.lockMs });
    return Promise.resolve(token);
  }

  renew(id: string, token: string): Promise<boolean> {
    const held = this.holds(id, token);
    if (held) this.locks.set(id, { token, until: this.now() + this.lockMs });
    return Promise.resolve(held);
  }

  release(id: string, token: string): Promise<void> {
    if (this.locks.get(id)?.token === token) this.locks.delete(id);
    return Promise.resolve();
  }

  commit(record: ResumableRecord, token: string, keepUntil: number): Promise<boolean> {
    if (!this.holds(record.id, token)) return Promise.resolve(false);
    this.records.set(record.id, { json: JSON.stringify(record), keepUntil });
    return Promise.resolve(true);
  }

  remove(id: string, token: string): Promise<boolean> {
    if (!this.holds(id, token)) return Promise.resolve(false);
    this.records.delete(id);
    return Promise.resolve(true);
  }

  /** Records held, forgotten ones excluded once walked past. */
  get size(): number {
    return this.records.size;
  }

  close(): Promise<void> {
    this.records.clear();
    this.locks.clear();
    return Promise.resolve();
  }

  private holds(id: string, token: string): boolean {
    const held = this.locks.get(id);
    return held !== undefined && held.token === token && held.until > this.now();
  }

  /**
   * Forgets the records past their keepUntil, oldest first. Records are kept in creation order and
   * each is kept a fixed time after its creation (api/operations/resumable.ts keepUntil), so the
   * first one not yet past ends the walk; an upload nobody asks about again keeps no memory for
   * long, though no stored byte brings the sweep to it (its bytes are not stored in this mode).
   */
  private forgetPast(): void {
    const now = this.now();
    for (const [id, entry] of this.records) {
      if (entry.keepUntil > now) return;
      this.records.delete(id);
    }
  }

  private live(id: string): { json: string; keepUntil: number } | undefined {
    const entry = this.records.get(id);
    if (entry !== undefined && entry.keepUntil <= this.now()) {
      this.records.delete(id);
      return undefined;
    }
    return entry;
  }
}
