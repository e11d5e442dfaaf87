/** The chunk buffers kept between chunks (workers/bulk/buffer-pool.ts): reused when large enough, bounded in count and size. */
import { describe, expect, it } from 'vitest';
import { BufferPool } from '../../workers/bulk/buffer-pool.js';

describe('BufferPool', () => {
  it('hands back a kept buffer large enough, and allocates a quarter more than asked otherwise', () => {
    const pool = new BufferPool(2, 1024);
    const first = pool.take(100);
    expect(first.length).toBe(125);
    pool.give(first);
    expect(pool.take(120)).toBe(first);
    expect(pool.take(100)).not.toBe(first);
  });

  it('keeps at most `keep` buffers, the largest, and none over maxBytes', () => {
    const pool = new BufferPool(2, 1000);
    const [a, b, c] = [pool.take(100), pool.take(200), pool.take(300)];
    pool.give(a);
    pool.give(b);
    pool.give(c);
    pool.give(pool.take(2000));
    expect(pool.take(300)).toBe(c);
    expect(pool.take(200)).toBe(b);
    expect(pool.take(100)).not.toBe(a);
  });
});
