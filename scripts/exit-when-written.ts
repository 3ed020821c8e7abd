// Exit once what was written has left the process. On a pipe (a GitHub runner's log, npm test reading the kill matrix)
// stdout is asynchronous, and `process.exit` straight after a long write drops its tail: the kill matrix's last rows
// and overall line went missing from a CI log that way. A write's callback runs once the writes before it are done.
export function exitWhenWritten(code: number): void {
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}
