/** A clock that only moves when someone sleeps: every wait is recorded and costs no real time. */
export interface FakeClock {
  now: () => number;
  date: () => Date;
  sleep: (ms: number) => Promise<void>;
  sleeps: number[];
}

export function createFakeClock(start = Date.UTC(2025, 0, 1)): FakeClock {
  let time = start;
  const sleeps: number[] = [];
  return {
    now: () => time,
    date: () => new Date(time),
    sleep: async (ms) => {
      sleeps.push(ms);
      time += ms;
    },
    sleeps,
  };
}
