/**
 * The lines of a Prometheus exposition that belong to metrics whose name contains `filter` (case
 * ignored), their `# HELP` and `# TYPE` lines included; everything when the filter is empty.
 */
export function metricsLines(text: string, filter: string): string {
  const wanted = filter.trim().toLowerCase();
  if (!wanted) return text;
  return text
    .split('\n')
    .filter((line) => {
      const name = line.startsWith('#') ? (line.split(' ')[2] ?? '') : /^[^{\s]*/.exec(line)![0];
      return name.toLowerCase().includes(wanted);
    })
    .join('\n');
}
