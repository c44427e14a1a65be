;; The ranking's inner loops over postings (postings-codec.ts layout): `score` sums bm25 of
;; one one-term phrase's blob into a segment's working arrays as it decodes it; `sum` adds a
;; prefix's expansions up by document, and `scoreList` sums bm25 of that list as `score`
;; does. They were JavaScript: `score` runs ~1.8x faster here with the same floats (1M
;; archive, 120-230k entries a blob: 17-22 ns an entry in V8, 10-13 here). A call scores the
;; entries below an ordinal and leaves the rest for the next (score-kernel.ts scores a
;; segment in windows of ordinals). Built into score-kernel-wasm.ts by
;; scripts/build-score-kernel.mjs; the arrays are the caller's, in this module's memory.
(module
  (memory (export "memory") 1)
  ;; Where the last call stopped reading its blob (the caller checks it against the blob's
  ;; end), the ordinal of the last entry it read, and how many entries are left after it.
  (global $end (export "end") (mut i32) (i32.const 0))
  (global $last (export "last") (mut i32) (i32.const 0))
  (global $left (export "left") (mut i32) (i32.const 0))

  ;; The varint at $at (its first byte already known to be >= 0x80); its end in $end.
  (func $varint (param $at i32) (result i32)
    (local $byte i32) (local $value i32) (local $shift i32)
    (loop $more
      (local.set $byte (i32.load8_u (local.get $at)))
      (local.set $at (i32.add (local.get $at) (i32.const 1)))
      (local.set $value
        (i32.or (local.get $value)
          (i32.shl (i32.and (local.get $byte) (i32.const 0x7f)) (local.get $shift))))
      (local.set $shift (i32.add (local.get $shift) (i32.const 7)))
      (br_if $more (i32.ge_u (local.get $byte) (i32.const 0x80))))
    (global.set $end (local.get $at))
    (local.get $value))

  ;; Reads one word of every cache line of a window's stamps, sums and norms, in order: the
  ;; hardware prefetches a sequential sweep, not a sparse list's scattered reads.
  (func (export "touch") (param $stamp i32) (param $scores i32) (param $norms i32) (param $from i32) (param $until i32)
    (local $ord i32) (local $sum i32)
    (local.set $ord (i32.and (local.get $from) (i32.const -8)))
    (block $done
      (loop $line
        (br_if $done (i32.ge_u (local.get $ord) (local.get $until)))
        (local.set $sum
          (i32.add (local.get $sum)
            (i32.add
              (i32.load (i32.add (local.get $stamp) (i32.shl (local.get $ord) (i32.const 2))))
              (i32.add
                (i32.load (i32.add (local.get $scores) (i32.shl (local.get $ord) (i32.const 3))))
                (i32.load (i32.add (local.get $norms) (i32.shl (local.get $ord) (i32.const 3))))))))
        (local.set $ord (i32.add (local.get $ord) (i32.const 8)))
        (br $line)))
    (global.set $end (local.get $sum)))

  ;; Keeps, in place, the ordinals of reached[$from, $listed) whose sum times $most is not
  ;; below $threshold (a window's matches before their own multipliers are read: most of a
  ;; broad query's fall below the best kept so far); returns the new end of the list.
  (func (export "cut")
    (param $scores i32) (param $list i32) (param $from i32) (param $listed i32)
    (param $most f64) (param $threshold f64)
    (result i32)
    (local $i i32) (local $out i32) (local $ord i32)
    (local.set $i (local.get $from))
    (local.set $out (local.get $from))
    (block $done
      (loop $match
        (br_if $done (i32.ge_u (local.get $i) (local.get $listed)))
        (local.set $ord (i32.load (i32.add (local.get $list) (i32.shl (local.get $i) (i32.const 2)))))
        (i32.store (i32.add (local.get $list) (i32.shl (local.get $out) (i32.const 2))) (local.get $ord))
        (local.set $out
          (i32.add (local.get $out)
            (i32.eqz
              (f64.lt
                (f64.mul
                  (f64.load (i32.add (local.get $scores) (i32.shl (local.get $ord) (i32.const 3))))
                  (local.get $most))
                (local.get $threshold)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $match)))
    (local.get $out))

  ;; Adds one blob's entries in $filter to a prefix's sums by document: seen[ord] is $epoch
  ;; once a document is summed, its sum at freqs[place[ord]]; new documents are appended to
  ;; ords and freqs from $count on. Returns the new count, or -1 for a blob that does not
  ;; decode; where it stopped reading in $end.
  (func (export "sum")
    (param $at i32) (param $weightOf i32) (param $filter i32) (param $masks i32) (param $docs i32)
    (param $seen i32) (param $epoch i32) (param $place i32) (param $ords i32) (param $freqs i32)
    (param $summed i32)
    (result i32)
    (local $left i32) (local $ord i32) (local $gap i32) (local $mask i32) (local $count i32)
    (local $rest i32) (local $bit i32) (local $f f64) (local $seenAt i32) (local $freqAt i32)
    (local.set $left (i32.load8_u (local.get $at)))
    (if (i32.ge_u (local.get $left) (i32.const 0x80))
      (then
        (local.set $left (call $varint (local.get $at)))
        (local.set $at (global.get $end)))
      (else (local.set $at (i32.add (local.get $at) (i32.const 1)))))
    (local.set $ord (i32.const -1))
    (block $done
      (loop $entry
        (br_if $done (i32.eqz (local.get $left)))
        (local.set $left (i32.sub (local.get $left) (i32.const 1)))
        (local.set $gap (i32.load8_u (local.get $at)))
        (if (i32.ge_u (local.get $gap) (i32.const 0x80))
          (then
            (local.set $gap (call $varint (local.get $at)))
            (local.set $at (global.get $end)))
          (else (local.set $at (i32.add (local.get $at) (i32.const 1)))))
        (local.set $ord (i32.add (local.get $ord) (i32.add (local.get $gap) (i32.const 1))))
        (if (i32.ge_u (local.get $ord) (local.get $docs)) (then (return (i32.const -1))))
        (local.set $mask (i32.load8_u (local.get $at)))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (if (i32.ge_u (local.get $mask) (local.get $masks)) (then (return (i32.const -1))))
        ;; Σ weight × count, as score reads it.
        (local.set $f (f64.const 0))
        (local.set $rest (local.get $mask))
        (block $columns
          (loop $column
            (br_if $columns (i32.eqz (local.get $rest)))
            (local.set $bit (i32.and (local.get $rest) (i32.sub (i32.const 0) (local.get $rest))))
            (local.set $rest (i32.xor (local.get $rest) (local.get $bit)))
            (local.set $count (i32.load8_u (local.get $at)))
            (if (i32.ge_u (local.get $count) (i32.const 0x80))
              (then
                (local.set $count (call $varint (local.get $at)))
                (local.set $at (global.get $end)))
              (else (local.set $at (i32.add (local.get $at) (i32.const 1)))))
            (local.set $f
              (f64.add (local.get $f)
                (f64.mul
                  (f64.load (i32.add (local.get $weightOf) (i32.shl (local.get $bit) (i32.const 3))))
                  (f64.convert_i32_u (local.get $count)))))
            (br $column)))
        (br_if $entry (i32.eqz (i32.and (local.get $mask) (local.get $filter))))
        (local.set $seenAt (i32.add (local.get $seen) (i32.shl (local.get $ord) (i32.const 2))))
        (if (i32.eq (i32.load (local.get $seenAt)) (local.get $epoch))
          (then
            (local.set $freqAt
              (i32.add (local.get $freqs)
                (i32.shl (i32.load (i32.add (local.get $place) (i32.shl (local.get $ord) (i32.const 2)))) (i32.const 3))))
            (f64.store (local.get $freqAt) (f64.add (f64.load (local.get $freqAt)) (local.get $f))))
          (else
            (i32.store (local.get $seenAt) (local.get $epoch))
            (i32.store (i32.add (local.get $place) (i32.shl (local.get $ord) (i32.const 2))) (local.get $summed))
            (i32.store (i32.add (local.get $ords) (i32.shl (local.get $summed) (i32.const 2))) (local.get $ord))
            (f64.store (i32.add (local.get $freqs) (i32.shl (local.get $summed) (i32.const 3))) (local.get $f))
            (local.set $summed (i32.add (local.get $summed) (i32.const 1)))))
        (br $entry)))
    (global.set $end (local.get $at))
    (local.get $summed))

  ;; score's sum over a list of decoded documents and weighted counts (a prefix's expansions
  ;; added up, sum's lists): entries $i to $end whose ordinal is below $until. Returns the new
  ;; length of the reached list; where it stopped in $end. Its stamps and sums are score's,
  ;; inline here too (a call per entry costs ~30%).
  (func (export "scoreList")
    (param $i i32) (param $stop i32) (param $until i32) (param $ords i32) (param $freqs i32)
    (param $idf f64) (param $saturation f64)
    (param $norms i32) (param $stamp i32) (param $scores i32)
    (param $reaching i32) (param $reached i32) (param $first i32)
    (param $list i32) (param $listed i32)
    (result i32)
    (local $ord i32) (local $f f64) (local $was i32)
    (local $stampAt i32) (local $scoreAt i32) (local $term f64)
    (block $done
      (loop $entry
        (br_if $done (i32.ge_u (local.get $i) (local.get $stop)))
        (local.set $ord (i32.load (i32.add (local.get $ords) (i32.shl (local.get $i) (i32.const 2)))))
        (br_if $done (i32.ge_u (local.get $ord) (local.get $until)))
        (local.set $f (f64.load (i32.add (local.get $freqs) (i32.shl (local.get $i) (i32.const 3)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (local.set $stampAt (i32.add (local.get $stamp) (i32.shl (local.get $ord) (i32.const 2))))
        (local.set $scoreAt (i32.add (local.get $scores) (i32.shl (local.get $ord) (i32.const 3))))
        (local.set $was (i32.load (local.get $stampAt)))
        (if (i32.eqz (local.get $first))
          (then
            ;; A later group: only a document that reached the group before counts.
            (if (i32.eq (local.get $was) (local.get $reaching))
              (then
                (if (i32.ge_s (local.get $list) (i32.const 0))
                  (then
                    (i32.store (i32.add (local.get $list) (i32.shl (local.get $listed) (i32.const 2))) (local.get $ord))
                    (local.set $listed (i32.add (local.get $listed) (i32.const 1)))))
                (i32.store (local.get $stampAt) (local.get $reached)))
              (else (br_if $entry (i32.ne (local.get $was) (local.get $reached)))))))
        (local.set $term
          (f64.mul (local.get $idf)
            (f64.div (f64.mul (local.get $f) (local.get $saturation))
              (f64.add (local.get $f)
                (f64.load (i32.add (local.get $norms) (i32.shl (local.get $ord) (i32.const 3))))))))
        (if (i32.or (i32.eqz (local.get $first)) (i32.eq (local.get $was) (local.get $reached)))
          (then (f64.store (local.get $scoreAt) (f64.add (f64.load (local.get $scoreAt)) (local.get $term))))
          (else
            ;; The first group: a document no phrase of it reached yet starts its sum here.
            (if (i32.ge_s (local.get $list) (i32.const 0))
              (then
                (i32.store (i32.add (local.get $list) (i32.shl (local.get $listed) (i32.const 2))) (local.get $ord))
                (local.set $listed (i32.add (local.get $listed) (i32.const 1)))))
            (i32.store (local.get $stampAt) (local.get $reached))
            (f64.store (local.get $scoreAt) (local.get $term))))
        (br $entry)))
    (global.set $end (local.get $i))
    (local.get $listed))

  ;; A blob's entry count, at its head; where its entries start in $end.
  (func (export "count") (param $at i32) (result i32)
    (if (i32.ge_u (i32.load8_u (local.get $at)) (i32.const 0x80))
      (then (return (call $varint (local.get $at)))))
    (global.set $end (i32.add (local.get $at) (i32.const 1)))
    (i32.load8_u (local.get $at)))

  ;; Scores the $left entries from $at on (the last one read was ordinal $ord, -1 before the
  ;; first) whose ordinal is below $until; where it stopped is in $end, $last and $left.
  ;; Returns the new length of the reached list, or -1 for a blob that does not decode.
  (func (export "score")
    (param $at i32) (param $left i32) (param $ord i32) (param $until i32)
    (param $weightOf i32) (param $filter i32) (param $masks i32) (param $docs i32)
    (param $idf f64) (param $saturation f64)
    (param $norms i32) (param $stamp i32) (param $scores i32)
    (param $reaching i32) (param $reached i32) (param $first i32)
    (param $list i32) (param $listed i32)
    (result i32)
    (local $start i32) (local $next i32) (local $gap i32) (local $mask i32) (local $count i32)
    (local $rest i32) (local $bit i32) (local $f f64) (local $was i32)
    (local $stampAt i32) (local $scoreAt i32) (local $term f64)
    (block $done
      (loop $entry
        (br_if $done (i32.eqz (local.get $left)))
        (local.set $start (local.get $at))
        (local.set $gap (i32.load8_u (local.get $at)))
        (if (i32.ge_u (local.get $gap) (i32.const 0x80))
          (then
            (local.set $gap (call $varint (local.get $at)))
            (local.set $at (global.get $end)))
          (else (local.set $at (i32.add (local.get $at) (i32.const 1)))))
        (local.set $next (i32.add (local.get $ord) (i32.add (local.get $gap) (i32.const 1))))
        (if (i32.ge_u (local.get $next) (local.get $docs)) (then (return (i32.const -1))))
        ;; An entry of a later window: left unread for the call that scores it.
        (if (i32.ge_u (local.get $next) (local.get $until))
          (then
            (local.set $at (local.get $start))
            (br $done)))
        (local.set $ord (local.get $next))
        (local.set $left (i32.sub (local.get $left) (i32.const 1)))
        (local.set $mask (i32.load8_u (local.get $at)))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (if (i32.ge_u (local.get $mask) (local.get $masks)) (then (return (i32.const -1))))
        ;; Σ weight × count over the columns present, lowest bit first (as sum adds).
        ;; Inline here and in sum: V8 does not inline a wasm call, and one per entry cost ~30%.
        (local.set $f (f64.const 0))
        (local.set $rest (local.get $mask))
        (block $columns
          (loop $column
            (br_if $columns (i32.eqz (local.get $rest)))
            (local.set $bit (i32.and (local.get $rest) (i32.sub (i32.const 0) (local.get $rest))))
            (local.set $rest (i32.xor (local.get $rest) (local.get $bit)))
            (local.set $count (i32.load8_u (local.get $at)))
            (if (i32.ge_u (local.get $count) (i32.const 0x80))
              (then
                (local.set $count (call $varint (local.get $at)))
                (local.set $at (global.get $end)))
              (else (local.set $at (i32.add (local.get $at) (i32.const 1)))))
            (local.set $f
              (f64.add (local.get $f)
                (f64.mul
                  (f64.load (i32.add (local.get $weightOf) (i32.shl (local.get $bit) (i32.const 3))))
                  (f64.convert_i32_u (local.get $count)))))
            (br $column)))
        (br_if $entry (i32.eqz (i32.and (local.get $mask) (local.get $filter))))
        (local.set $stampAt (i32.add (local.get $stamp) (i32.shl (local.get $ord) (i32.const 2))))
        (local.set $scoreAt (i32.add (local.get $scores) (i32.shl (local.get $ord) (i32.const 3))))
        (local.set $was (i32.load (local.get $stampAt)))
        (if (i32.eqz (local.get $first))
          (then
            ;; A later group: only a document that reached the group before counts.
            (if (i32.eq (local.get $was) (local.get $reaching))
              (then
                (if (i32.ge_s (local.get $list) (i32.const 0))
                  (then
                    (i32.store (i32.add (local.get $list) (i32.shl (local.get $listed) (i32.const 2))) (local.get $ord))
                    (local.set $listed (i32.add (local.get $listed) (i32.const 1)))))
                (i32.store (local.get $stampAt) (local.get $reached)))
              (else (br_if $entry (i32.ne (local.get $was) (local.get $reached)))))))
        (local.set $term
          (f64.mul (local.get $idf)
            (f64.div (f64.mul (local.get $f) (local.get $saturation))
              (f64.add (local.get $f)
                (f64.load (i32.add (local.get $norms) (i32.shl (local.get $ord) (i32.const 3))))))))
        (if (i32.or (i32.eqz (local.get $first)) (i32.eq (local.get $was) (local.get $reached)))
          (then (f64.store (local.get $scoreAt) (f64.add (f64.load (local.get $scoreAt)) (local.get $term))))
          (else
            ;; The first group: a document no phrase of it reached yet starts its sum here.
            (if (i32.ge_s (local.get $list) (i32.const 0))
              (then
                (i32.store (i32.add (local.get $list) (i32.shl (local.get $listed) (i32.const 2))) (local.get $ord))
                (local.set $listed (i32.add (local.get $listed) (i32.const 1)))))
            (i32.store (local.get $stampAt) (local.get $reached))
            (f64.store (local.get $scoreAt) (local.get $term))))
        (br $entry)))
    (global.set $end (local.get $at))
    (global.set $last (local.get $ord))
    (global.set $left (local.get $left))
    (local.get $listed))
)
