// A command that starts a grandchild and both sleep for 30 s. Writes "<grandchild pid> <own pid>"
// to the file named by its first argument once the grandchild runs. With a second argument
// "exit", the command itself exits at once and leaves the grandchild holding stdout open.
const { spawn } = require('node:child_process');
const fs = require('node:fs');

const grandchild = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'inherit' });
fs.writeFileSync(process.argv[2], `${grandchild.pid} ${process.pid}`);
if (process.argv[3] === 'exit') process.exit(0);
setTimeout(() => {}, 30000);
