/**
 * Runs `work` over `items` with at most `total` at once and at most `perGroup` at once per group
 * (a URL's host): a bulk job of a thousand URLs on one host does not open a thousand connections
 * to it. Results keep the items' order.
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  options: { total: number; perGroup: number; group: (item: T) => string },
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  const busy = new Map<string, number>();
  const pending = items.map((item, index) => ({ item, index, group: options.group(item) }));
  let running = 0;
  return new Promise((resolve, reject) => {
    const pump = (): void => {
      if (pending.length === 0 && running === 0) return resolve(results);
      for (let i = 0; i < pending.length && running < options.total;) {
        const next = pending[i]!;
        if ((busy.get(next.group) ?? 0) >= options.perGroup) {
          i++;
          continue;
        }
        pending.splice(i, 1);
        running++;
        busy.set(next.group, (busy.get(next.group) ?? 0) + 1);
        work(next.item).then(
          (result) => {
            results[next.index] = result;
            running--;
            busy.set(next.group, busy.get(next.group)! - 1);
            pump();
          },
          (err: unknown) => reject(err instanceof Error ? err : new Error(String(err))),
        );
      }
    };
    pump();
  });
}
