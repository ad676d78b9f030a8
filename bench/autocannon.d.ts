// autocannon ships no types; the load bench uses its promise API with a few fields of the result.
declare module 'autocannon' {
  interface Req {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (req: Req) => Req;
  }
  interface Result {
    requests: { average: number };
    latency: { p50: number; p99: number };
    errors: number;
    non2xx: number;
  }
  function autocannon(opts: { url: string; connections?: number; duration?: number; requests?: Req[] }): Promise<Result>;
  export default autocannon;
}
