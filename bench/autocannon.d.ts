/**
 * The part of autocannon 8's programmatic API the benchmarks use. autocannon ships no types and
 * @types/autocannon is not a dependency; this declaration covers only what bench/ calls.
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events'

  export interface AutocannonRequest {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string | Buffer
  }

  export interface RequestSpec extends AutocannonRequest {
    /** Called before every request; returns the (mutated) request. */
    setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest
  }

  export interface Options {
    url: string
    connections?: number
    /** Seconds. */
    duration?: number
    pipelining?: number
    timeout?: number
    method?: string
    headers?: Record<string, string>
    body?: string | Buffer
    requests?: RequestSpec[]
    title?: string
  }

  /** hdr-histogram-percentiles-obj: the distribution of one statistic. */
  export interface Histogram {
    average: number
    mean: number
    stddev: number
    min: number
    max: number
    total: number
    p50: number
    p90: number
    p97_5: number
    p99: number
  }

  export interface Result {
    title?: string
    url: string
    /** Requests per second, sampled each second. */
    requests: Histogram
    /** Milliseconds. */
    latency: Histogram
    /** Bytes per second. */
    throughput: Histogram
    /** Seconds. */
    duration: number
    errors: number
    timeouts: number
    non2xx: number
    '2xx': number
    statusCodeStats: Record<string, { count: number }>
  }

  export interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void
  }

  function autocannon(options: Options): Instance
  export default autocannon
}
