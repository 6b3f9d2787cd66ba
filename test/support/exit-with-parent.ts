/**
 * Preloaded (`--import`) into the role processes that tests and benchmarks start: the process
 * stops when the one that started it is gone — its end of the stdin pipe closes — so no server
 * outlives a test run that crashed or was killed before it could stop them.
 */
process.stdin.on('end', () => process.kill(process.pid, 'SIGTERM'));
process.stdin.resume();
