// The plan executors: run a decoded plan on every available backend and say who disagrees.
#pragma once

#include "api_plan.h"
#include "blocks_plan.h"
#include "hash_plan.h"
#include "many_plan.h"
#include "verdict.h"

namespace shakedown::fuzz {

// Every available backend (each also handing off mid-stream and cloned, as the plan says) plus the
// one-shot API, against OpenSSL EVP one-shot; the report also says whether generic agrees.
Verdict run_hash_plan(const HashPlan& plan);
// Every available backend of the family (one call, and split across two backends) against generic.
Verdict run_blocks_plan(const BlocksPlan& plan);
// The operation sequence against a model of the documented API contract (error codes, outputs).
Verdict run_api_plan(const ApiPlan& plan);
// hash_many() on every available backend by name and on the default rows, each output against OpenSSL.
Verdict run_many_plan(const ManyPlan& plan);

}  // namespace shakedown::fuzz
