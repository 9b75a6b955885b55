/*  Runtime of the fold package: runs learned programs for fold.engine.

    Every entry point loads a program and its facts into a fresh temporary
    module (in_temporary_module/3), works there, and the module is destroyed
    afterwards: nothing is left in the global database. Every entry point runs
    under call_with_time_limit/2 and reports its outcome in Status ("ok",
    "failed", "timeout" or "error: ...") instead of throwing.

    Facts are read term by term and asserted only if they are ground facts of
    a declared fact predicate with an integer row id: data can never add a
    clause with a body, a directive, or a fact of any other predicate.
*/

:- module(fold_runtime,
          [ fold_evaluate/8,        % +Program, +Facts, +Spec, +N, +LimitMs, -Status, -Codes, -Times
            fold_justify/7,         % +Program, +Facts, +Spec, +Id, +LimitMs, -Status, -Text
            fold_reserved/1         % -Text
          ]).

:- use_module(library(modules)).
:- use_module(library(time)).
:- use_module(library(lists)).
:- use_module(library(assoc)).

%!  fold_evaluate(+Program, +Facts, +Spec, +N, +LimitMs, -Status, -Codes, -Times) is det.
%
%   Codes is a string with one character per row 0..N-1: code 65+K when the
%   row gets the K-th label of the decision list (the default is last).
%   The class predicates are evaluated set-at-a-time (findall over each
%   class predicate), then the decision list keeps the first class per row.
%   Times is "LoadSeconds QuerySeconds".

fold_evaluate(Program, Facts, SpecText, N, LimitMs, Status, Codes, Times) :-
    guarded(LimitMs, evaluate(Program, Facts, SpecText, N, Codes, Times), Status),
    ( var(Codes) -> Codes = "" ; true ),
    ( var(Times) -> Times = "" ; true ).

evaluate(Program, Facts, SpecText, N, Codes, Times) :-
    term_string(Spec, SpecText),
    Spec = spec(_Row, _Label, Classes, Sigs),
    get_time(T0),
    in_temporary_module(M,
                        load(M, Program, Facts, Sigs),
                        timed_decide(M, Classes, N, Codes, T0, Times)).

timed_decide(M, Classes, N, Codes, T0, Times) :-
    get_time(T1),
    decide(M, Classes, N, Codes),
    get_time(T2),
    Load is T1 - T0,
    Query is T2 - T1,
    format(string(Times), "~15e ~15e", [Load, Query]).

decide(M, Classes, N, String) :-
    length(Classes, K),
    Default is 65 + K,
    functor(Array, v, N),
    fill(N, Array, Default),
    reverse(Classes, Reversed),
    mark(Reversed, K, M, Array),
    Array =.. [_|Codes],
    string_codes(String, Codes).

fill(0, _, _) :- !.
fill(I, Array, Value) :-
    nb_setarg(I, Array, Value),
    I1 is I - 1,
    fill(I1, Array, Value).

mark([], _, _, _).
mark([Pred|Preds], K, M, Array) :-
    K1 is K - 1,
    Code is 65 + K1,
    forall(call(M:Pred, Id), ( I is Id + 1, nb_setarg(I, Array, Code) )),
    mark(Preds, K1, M, Array).

%!  fold_justify(+Program, +Facts, +Spec, +Id, +LimitMs, -Status, -Text) is det.
%
%   Text is the proof of label(Id, Class): the goals that hold, and for each
%   negated or failed goal, where each of its clauses fails.

fold_justify(Program, Facts, SpecText, Id, LimitMs, Status, Text) :-
    guarded(LimitMs, justify(Program, Facts, SpecText, Id, Text), Status),
    ( var(Text) -> Text = "" ; true ).

justify(Program, Facts, SpecText, Id, Text) :-
    term_string(Spec, SpecText),
    Spec = spec(_Row, Label, _Classes, Sigs),
    in_temporary_module(M,
                        load(M, Program, Facts, Sigs),
                        justify_in(M, Label, Id, Text)).

justify_in(M, Label, Id, Text) :-
    Goal =.. [Label, Id, _],
    once(prove(M, Goal, Proof)),
    with_output_to(string(Text), show(Proof, 0)).

%!  fold_reserved(-Text) is det.
%
%   One line "Arity<TAB>Name" per predicate of module system: names a
%   program must not define.

fold_reserved(Text) :-
    findall(A-N, ( current_predicate(system:N/A) ), Pairs0),
    sort(Pairs0, Pairs),
    with_output_to(string(Text),
                   forall(member(A-N, Pairs), format("~d\t~w~n", [A, N]))).

%   Loading -------------------------------------------------------------

load(M, Program, Facts, Sigs) :-
    setup_call_cleanup(open_string(Program, In),
                       read_program(In, M),
                       close(In)),
    signatures(Sigs, Allowed),
    setup_call_cleanup(open_string(Facts, FactsIn),
                       read_facts(FactsIn, M, Allowed),
                       close(FactsIn)).

signatures(Sigs, Assoc) :-
    findall(Sig-true, member(Sig, Sigs), Pairs0),
    sort(Pairs0, Pairs),
    list_to_assoc(Pairs, Assoc).

%   The program is read clause by clause (a syntax error is an error, not a
%   warning); its only directives may be dynamic/1 declarations.

read_program(In, M) :-
    repeat,
    read_term(In, Term, []),
    (   Term == end_of_file
    ->  !
    ;   program_term(Term, M),
        fail
    ).

program_term((:- dynamic(Name/Arity)), M) :- !,
    must_be(atom, Name),
    must_be(nonneg, Arity),
    dynamic(M:Name/Arity).
program_term((:- Directive), _) :- !,
    domain_error(fold_program_directive, Directive).
program_term(Clause, M) :-
    assertz(M:Clause).

read_facts(In, M, Allowed) :-          % a failure-driven loop: constant stack
    repeat,
    read_term(In, Term, []),
    (   Term == end_of_file
    ->  !
    ;   check_fact(Term, Allowed),
        assertz(M:Term),
        fail
    ).

check_fact(Term, Allowed) :-
    (   compound(Term),
        ground(Term),
        compound_name_arity(Term, Name, Arity),
        get_assoc(Name/Arity, Allowed, true),
        arg(1, Term, Id),
        integer(Id)
    ->  true
    ;   domain_error(fold_fact, Term)
    ).

guarded(LimitMs, Goal, Status) :-
    Limit is LimitMs / 1000,
    catch(( call_with_time_limit(Limit, Goal) -> Status = "ok" ; Status = "failed" ),
          Error,
          status_of(Error, Status)).

status_of(time_limit_exceeded, "timeout") :- !.
status_of(time_limit_exceeded(_), "timeout") :- !.
status_of(Error, Status) :-
    format(string(Status), "error: ~q", [Error]).

%   Justification (a small meta-interpreter) ------------------------------

builtin(G) :-
    compound(G),
    compound_name_arity(G, N, A),
    memberchk(N/A, [number/1, (=<)/2, (>)/2, (\==)/2, (=)/2]).

prove(_, true, true) :- !.
prove(M, (A, B), and(PA, PB)) :- !,
    prove(M, A, PA),
    prove(M, B, PB).
prove(M, (C -> T ; E), Proof) :- !,
    (   prove(M, C, PC)
    ->  prove(M, T, PT), Proof = and(PC, PT)
    ;   why_not(M, C, Why), prove(M, E, PE), Proof = and(failed(C, Why), PE)
    ).
prove(M, (A ; B), Proof) :- !,
    (   prove(M, A, Proof)
    ;   prove(M, B, Proof)
    ).
prove(M, \+ G, not(G, Why)) :- !,
    \+ prove(M, G, _),
    why_not(M, G, Why).
prove(_, G, builtin(G)) :-
    builtin(G), !,
    call(G).
prove(M, G, Proof) :-
    clause(M:G, Body),
    (   Body == true
    ->  Proof = fact(G)
    ;   prove(M, Body, PB),
        Proof = rule(G, PB)
    ).

why_not(M, G, Why) :-
    findall(fails_at(Head, At),
            ( clause(M:G, Body), Head = G, first_failure(M, Body, At) ),
            Why).

first_failure(M, (A, B), At) :- !,
    (   prove(M, A, _)
    ->  first_failure(M, B, At)
    ;   At = A
    ).
first_failure(_, G, G).

show(true, _).
show(and(A, B), I) :-
    show(A, I),
    show(B, I).
show(fact(G), I) :-
    line(I, "~q is a fact", [G]).
show(builtin(G), I) :-
    line(I, "~q holds", [G]).
show(rule(G, P), I) :-
    line(I, "~q holds because", [G]),
    I2 is I + 2,
    show(P, I2).
show(not(G, Why), I) :-
    line(I, "\\+ ~q holds, because ~q fails:", [G, G]),
    I2 is I + 2,
    show_why(Why, I2).
show(failed(G, Why), I) :-
    line(I, "~q fails:", [G]),
    I2 is I + 2,
    show_why(Why, I2).

show_why([], I) :-
    line(I, "no clause applies", []).
show_why([W|Ws], I) :-
    forall(member(fails_at(Head, At), [W|Ws]),
           line(I, "a clause of ~q fails at ~q", [Head, At])).

line(I, Format, Args) :-
    format("~t~*|", [I]),
    format(Format, Args),
    nl.
