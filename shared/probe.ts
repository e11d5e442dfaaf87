/** A dependency that has not answered its ping in this long counts as down. */
export const PROBE_TIMEOUT_MS = 1000;

/** Whether `check` resolves within `ms`: the one bound behind /readyz, v1 status and dependency_up. */
export async function answersWithin(check: () => Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      Promise.resolve()
        .then(check)
        .then(
          () => true,
          () => false,
        ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
