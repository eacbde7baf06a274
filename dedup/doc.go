// Package dedup finds near-duplicate texts. It knows nothing of HTML: it
// works on the extracted text of pages.
//
// The pieces follow the seeds of ../shared/seeds and the papers they cite:
//
//   - Normalisation and features (Normalizer): lower case, Unicode NFKC,
//     punctuation and pseudo-graphics removed, a policy for numbers, short
//     words dropped (seed 002), word shingles of one or more sizes, and
//     character n-grams for scripts without spaces (each CJK character is
//     a token, so word shingles over Chinese text are character n-grams)
//     or for text with its spaces removed (seeds 000 and 002).
//   - SimHash-64 (Charikar, "Similarity estimation techniques from rounding
//     algorithms", STOC 2002; seeds 001 and 004) over weighted features,
//     with every feature hashed by xxhash so that all 64 bits are balanced.
//   - Hamming search with permuted sorted tables (Manku, Jain and Das
//     Sarma, "Detecting near-duplicates for web crawling", WWW 2007).
//   - MinHash with LSH banding (Broder 1997; seed 000's "shingles LSH"),
//     the bands and rows chosen from a threshold. Cluster and Streamer
//     sign with one permutation hashing and optimal densification (Li,
//     Owen and Zhang, NIPS 2012; Shrivastava, ICML 2017: OnePermHasher),
//     one hash a shingle; the persistent Store keeps MinHasher's 128
//     permutations, which its b-bit sketches (Li and König 2010) are of.
//   - Streaming (Streamer): signatures, band keys and sketches per
//     document in a temporary file and an external sort, only the
//     documents with candidates read back, memory bounded.
//   - Verification of candidates (Jaccard, containment, cosine of shingle
//     profiles as in seed 002), clusters in which every member is close to
//     its centre (seed 002's runaway cluster), and the canonical page of a
//     cluster (seed 000).
package dedup
