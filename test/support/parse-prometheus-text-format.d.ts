declare module 'parse-prometheus-text-format' {
  /** Prometheus' text exposition format as metric families. */
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
