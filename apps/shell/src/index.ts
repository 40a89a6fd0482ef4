// Async boundary: shared singletons are negotiated with the remotes before any of them is used.
import('./bootstrap.tsx');
