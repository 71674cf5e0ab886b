// RUN: tile-opt %s --tile-test-print-axis-info --split-input-file --verify-diagnostics

// vector_add's offsets and pointers, with the specialization facts: the
// pointer is 16-byte aligned and n is divisible by 16.
tile.kernel @offsets(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                     %n: i32 {tile.divisibility = 16 : i32}) {
  // expected-remark @+1 {{contiguity = [1], divisibility = [1024], constancy = [1]}}
  %c1024 = arith.constant 1024 : i32
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %pid = tile.program_id 0
  // expected-remark @+1 {{contiguity = [1], divisibility = [1024], constancy = [1]}}
  %base = arith.muli %pid, %c1024 : i32
  // expected-remark @+1 {{contiguity = [1024], divisibility = [1073741824], constancy = [1]}}
  %r = tile.make_range 0, 1024 : tensor<1024xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [1024], constancy = [1024]}}
  %bs = tile.splat %base : tensor<1024xi32>
  // expected-remark @+1 {{contiguity = [1024], divisibility = [1024], constancy = [1]}}
  %offs = arith.addi %bs, %r : tensor<1024xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [16], constancy = [1024]}}
  %ns = tile.splat %n : tensor<1024xi32>
  // The mask is uniform over aligned blocks of gcd(1024, 16) = 16 elements.
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [16], constancy = [1024]}}
  %xs = tile.splat %x : tensor<1024x!tile.ptr<f32>>
  // Pointer contiguity counts elements; divisibility is in bytes.
  // expected-remark @+1 {{contiguity = [1024], divisibility = [16], constancy = [1]}}
  %ptrs = tile.addptr %xs, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.return
}

// -----

// Without facts about arguments, nothing is known about them.
tile.kernel @no_facts(%x: !tile.ptr<f16>, %n: i32) {
  // expected-remark @+1 {{contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %r = tile.make_range 0, 128 : tensor<128xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %xs = tile.splat %x : tensor<128x!tile.ptr<f16>>
  // expected-remark @+1 {{contiguity = [128], divisibility = [1], constancy = [1]}}
  %ptrs = tile.addptr %xs, %r : tensor<128x!tile.ptr<f16>>, tensor<128xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %ns = tile.splat %n : tensor<128xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %mask = arith.cmpi slt, %r, %ns : tensor<128xi32>
  tile.return
}

// -----

// 2-D: rows strided by lda (unknown), columns contiguous.
tile.kernel @rows(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %lda: i32) {
  // expected-remark @+1 {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %rm = tile.make_range 0, 64 : tensor<64xi32>
  // expected-remark @+1 {{contiguity = [32], divisibility = [1073741824], constancy = [1]}}
  %rk = tile.make_range 0, 32 : tensor<32xi32>
  // expected-remark @+1 {{contiguity = [64, 1], divisibility = [1073741824, 1], constancy = [1, 1]}}
  %col = tile.expand_dims %rm, axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  // expected-remark @+1 {{contiguity = [1, 1], divisibility = [1, 1], constancy = [64, 1]}}
  %ldas = tile.splat %lda : tensor<64x1xi32>
  // Scaling by an unknown stride breaks the runs: no element is known to be
  // divisible by anything.
  // expected-remark @+1 {{contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 1]}}
  %rowoff = arith.muli %col, %ldas : tensor<64x1xi32>
  // expected-remark @+1 {{contiguity = [1, 32], divisibility = [1, 1073741824], constancy = [1, 1]}}
  %row = tile.expand_dims %rk, axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  // expected-remark @+1 {{contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 32]}}
  %rb = tile.broadcast %rowoff : tensor<64x1xi32> -> tensor<64x32xi32>
  // expected-remark @+1 {{contiguity = [1, 32], divisibility = [1, 1073741824], constancy = [64, 1]}}
  %cb = tile.broadcast %row : tensor<1x32xi32> -> tensor<64x32xi32>
  // expected-remark @+1 {{contiguity = [1, 32], divisibility = [1, 1], constancy = [1, 1]}}
  %offs = arith.addi %rb, %cb : tensor<64x32xi32>
  // A contiguous run plus itself is not contiguous, and only its first
  // element keeps the divisibility.
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %twice = arith.addi %rm, %rm : tensor<64xi32>
  tile.return
}

// -----

// Loop-carried values and the induction variable.
tile.kernel @loop(%k: i32) {
  // expected-remark @+1 {{contiguity = [1], divisibility = [1073741824], constancy = [1]}}
  %c0 = arith.constant 0 : i32
  // expected-remark @+1 {{contiguity = [1], divisibility = [32], constancy = [1]}}
  %c32 = arith.constant 32 : i32
  // expected-remark @+1 {{contiguity = [1], divisibility = [32], constancy = [1]}}
  %r = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %c0) -> (i32) : i32 {
    // The induction variable is a multiple of 32, so is acc + i.
    // expected-remark @+1 {{contiguity = [1], divisibility = [32], constancy = [1]}}
    %next = arith.addi %acc, %i : i32
    scf.yield %next : i32
  }
  tile.return
}

// -----

// A loop that carries nothing (its body's only argument is the induction
// variable), in the kernel and in a producer region: offsets from the
// induction variable keep their contiguity and divisibility.
tile.kernel @loop_without_iter_args(%n: i32) {
  // expected-remark @+1 {{contiguity = [1], divisibility = [1073741824], constancy = [1]}}
  %c0 = arith.constant 0 : i32
  // expected-remark @+1 {{contiguity = [1], divisibility = [128], constancy = [1]}}
  %c128 = arith.constant 128 : i32
  scf.for %i = %c0 to %n step %c128 : i32 {
    // expected-remark @+1 {{contiguity = [128], divisibility = [1073741824], constancy = [1]}}
    %r = tile.make_range 0, 128 : tensor<128xi32>
    // expected-remark @+1 {{contiguity = [1], divisibility = [128], constancy = [128]}}
    %s = tile.splat %i : tensor<128xi32>
    // expected-remark @+1 {{contiguity = [128], divisibility = [128], constancy = [1]}}
    %offs = arith.addi %s, %r : tensor<128xi32>
  }
  tile.producer warps = 4 groups = 1 registers = 56 {
  ^bb0(%g: i32):
    scf.for %i = %c0 to %n step %c128 : i32 {
      // expected-remark @+1 {{contiguity = [128], divisibility = [1073741824], constancy = [1]}}
      %r = tile.make_range 0, 128 : tensor<128xi32>
      // expected-remark @+1 {{contiguity = [1], divisibility = [128], constancy = [128]}}
      %s = tile.splat %i : tensor<128xi32>
      // expected-remark @+1 {{contiguity = [128], divisibility = [128], constancy = [1]}}
      %offs = arith.addi %s, %r : tensor<128xi32>
    }
  }
  tile.return
}

// -----

// Hints join what the analysis derives: a runtime start stated a multiple of
// 16, then offsets gathered by a load stated to run in 64s.
tile.kernel @hints(%start: i32, %p: !tile.ptr<i32>) {
  // expected-remark @+1 {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %s = tile.hint %start multiple_of [16] max_contiguous [1] : i32
  // expected-remark @+1 {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = tile.make_range 0, 64 : tensor<64xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [64]}}
  %ps = tile.splat %p : tensor<64x!tile.ptr<i32>>
  // expected-remark @+1 {{contiguity = [64], divisibility = [1], constancy = [1]}}
  %pp = tile.addptr %ps, %r : tensor<64x!tile.ptr<i32>>, tensor<64xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %g = tile.load %pp : tensor<64x!tile.ptr<i32>>
  // expected-remark @+1 {{contiguity = [64], divisibility = [16], constancy = [1]}}
  %h = tile.hint %g multiple_of [16] max_contiguous [64] : tensor<64xi32>
  tile.return
}
