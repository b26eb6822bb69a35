/* eslint-disable */
// Lets a child process run this repo's TypeScript sources (tests only): @pfs/* map to their src, and
// .ts files are transpiled on load with the TypeScript compiler already installed. No ts-node needed.
const ts = require('typescript');
const Module = require('module');
const path = require('path');
const fs = require('fs');

const root = path.resolve(__dirname, '../../../..');
const services = ['auth', 'api', 'export-worker', 'cli'];
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const match = /^@pfs\/([a-z-]+)$/.exec(request);
  if (match)
    request = path.join(root, services.includes(match[1]) ? 'services' : 'libs', match[1], 'src', 'index.ts');
  return resolve.call(this, request, parent, ...rest);
};
require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
    fileName: filename,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
    },
  });
  module._compile(outputText, filename);
};
