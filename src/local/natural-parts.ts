/**
 * The parts of `natural` the reference engine uses, loaded from the files that define them. This
 * is the one module that names natural's files: the rest of src/local imports from here.
 *
 * Not through natural's package entry: `import 'natural'` loads every part of the library, its
 * database adapters included (pg, mongoose, mongodb, redis, memjs), and runs `dotenv.config()`
 * several times, which reads any `.env` in the working directory and prints dotenv's tips to
 * stdout. Measured on Node 24: 1.3 s and about 156 MB of RSS for the entry, 7 ms for the tf-idf
 * file alone; the tips would land in the middle of `npm start`'s output. natural 8 has no
 * `exports` map, so these paths are the files its own entry re-exports.
 */
export { BayesClassifier } from 'natural/lib/natural/classifiers/index.js';
export { PorterStemmer, PorterStemmerEs } from 'natural/lib/natural/stemmers/index.js';
export { TfIdf } from 'natural/lib/natural/tfidf/index.js';
export { AggressiveTokenizerEs } from 'natural/lib/natural/tokenizers/index.js';
