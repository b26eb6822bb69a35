/* eslint-disable */
// Lets a child process run this repo's TypeScript sources (tests only): @pfs/* map to their src, and
// .ts files are transpiled on load with the TypeScript compiler already installed. No ts-node needed.
const Module = require('module');
const path = require('path');
const fs = require('fs');
const crypto = require('crypto');
const os = require('os');

// Transpiled files are cached on disk, and the compiler is loaded only on a miss: a warm run holds no
// TypeScript in memory (the export measurements read this process's peak RSS).
const cacheDir = path.join(os.tmpdir(), 'pfs-ts-child-cache');
fs.mkdirSync(cacheDir, { recursive: true });
let ts;

const root = path.resolve(__dirname, '../../../..');
const services = ['auth', 'api', 'worker', 'cli'];
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const match = /^@pfs\/([a-z-]+)$/.exec(request);
  if (match)
    request = path.join(root, services.includes(match[1]) ? 'services' : 'libs', match[1], 'src', 'index.ts');
  return resolve.call(this, request, parent, ...rest);
};
require.extensions['.ts'] = (module, filename) => {
  const source = fs.readFileSync(filename, 'utf8');
  const cached = path.join(
    cacheDir,
    crypto.createHash('sha1').update(filename).update(source).digest('hex') + '.js',
  );
  if (fs.existsSync(cached)) return module._compile(fs.readFileSync(cached, 'utf8'), filename);
  ts ??= require('typescript');
  const { outputText } = ts.transpileModule(source, {
    fileName: filename,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
    },
  });
  // Written aside, then renamed into place: test files run in parallel (one per jest project) load the same
  // sources, and a reader that found the file between another writer's truncate and its write got an empty
  // module (its exports undefined), so the child died at start and its test waited out its timeout.
  const partial = `${cached}.${process.pid}.tmp`;
  fs.writeFileSync(partial, outputText);
  fs.renameSync(partial, cached);
  module._compile(outputText, filename);
};
