import { describe, expect, it } from 'vitest';
import { median, pairOrder, settingsInRound, summarisePairs } from './bulk-rounds.js';

describe('bench:bulk target 3 rounds', () => {
  it('alternates the order of each pair: AB, BA, AB, BA', () => {
    expect([0, 1, 2, 3].map(pairOrder)).toEqual([
      ['alone', 'beside'],
      ['beside', 'alone'],
      ['alone', 'beside'],
      ['beside', 'alone'],
    ]);
  });

  it('reverses the settings in every other round', () => {
    expect([0, 1, 2].map((r) => settingsInRound([19, 0], r))).toEqual([
      [19, 0],
      [0, 19],
      [19, 0],
    ]);
  });

  it('takes the middle value, or the mean of the middle two', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('judges on the median of per-pair rises and leaves out pairs whose job ended inside the window', () => {
    const summary = summarisePairs([
      { aloneP99Ms: 10, besideP99Ms: 11, overlap: 1 }, // +10 %
      { aloneP99Ms: 40, besideP99Ms: 12, overlap: 1 }, // −70 %: a burst in the alone window
      { aloneP99Ms: 10, besideP99Ms: 13, overlap: 1 }, // +30 %
      { aloneP99Ms: 10, besideP99Ms: 100, overlap: 0.5 }, // excluded
    ]);
    expect(summary.rises.map((r) => Math.round(r * 100))).toEqual([10, -70, 30]);
    expect(summary.medianRise).toBeCloseTo(0.1);
    expect(summary.medianAloneMs).toBe(10);
    expect(summary.medianBesideMs).toBe(12);
    expect(summary.excluded).toBe(1);
  });
});
