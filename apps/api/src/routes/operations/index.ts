// Operations: the probes, the metrics and the embedded database's backup.
export { backupRoutes } from './backup.ts';
export { metricsRoutes } from './metrics.ts';
export { probeRoutes } from './probes.ts';
