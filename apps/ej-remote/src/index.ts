// Standalone entry (the shell loads ./routes instead). Async boundary for the shared singletons.
import('./standalone.tsx');
