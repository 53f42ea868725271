// Stands in for `server-only` under vitest: the real package throws outside React server builds.
export {};
