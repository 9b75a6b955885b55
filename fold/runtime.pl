/*  Runtime of the fold package: runs learned programs for fold.engine.

    Every entry point loads a program and its data into a fresh temporary
    module (in_temporary_module/3), works there, and the module is destroyed
    afterwards: nothing is left in the global database. Every entry point runs
    under call_with_time_limit/2 and reports its outcome in Status ("ok",
    "failed", "timeout" or "error: ...") instead of throwing.

    Data are one fact per row, '$row'(Id, Cell1, ..., CellK), read in lists
    of rows (fold/facts.py writes them) and asserted only if each is a ground
    '$row' fact of the expected arity with an integer Id: data can never add
    a clause with a body, a directive, or a fact of any other predicate, and
    nothing read from data is ever called. Each feature predicate of the
    program is then defined as a view of the row facts:

        Feature(X, V)    :- '$row'(X, ..., V, ...), number(V).   % num(Feature)
        Feature(X, V)    :- '$row'(X, ..., V, ...), atom(V).     % cat(Feature, Neg)
        Neg(X, V)        :- '$row'(X, ..., neg(Vs), ...), member(V, Vs).
        Row(X)           :- '$row'(X, ...).

    so the program sees exactly the one-fact-per-cell data of its file
    (fold.facts.write_facts) while loading costs one assertz per row and
    lookups use SWI-Prolog's JIT index on the row id.
*/

:- module(fold_runtime,
          [ fold_evaluate/8,        % +Program, +Rows, +Spec, +N, +LimitMs, -Status, -Codes, -Times
            fold_justify/7,         % +Program, +Rows, +Spec, +Id, +LimitMs, -Status, -Text
            fold_reserved/1         % -Text
          ]).

:- use_module(library(modules)).
:- use_module(library(time)).
:- use_module(library(lists)).

%!  fold_evaluate(+Program, +Rows, +Spec, +N, +LimitMs, -Status, -Codes, -Times) is det.
%
%   Rows holds the facts of rows 0..N-1. Codes is a string with one
%   character per row: code 65+K when the row gets the K-th label of the
%   decision list (the default is last). Each row is decided as the
%   program's label/2 decides it: the first class predicate that holds for
%   it (each called with the row id bound, so every lookup uses the JIT
%   index on the id), else the default.
%   Times is "LoadSeconds QuerySeconds".

fold_evaluate(Program, Rows, SpecText, N, LimitMs, Status, Codes, Times) :-
    guarded(LimitMs, evaluate(Program, Rows, SpecText, N, Codes, Times), Status),
    ( var(Codes) -> Codes = "" ; true ),
    ( var(Times) -> Times = "" ; true ).

evaluate(Program, Rows, SpecText, N, Codes, Times) :-
    read_spec(SpecText, spec(RowPred, _Label, Classes, Columns)),
    get_time(T0),
    in_temporary_module(M,
                        load(M, Program, Rows, RowPred, Columns),
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
    functor(Array, codes, N),
    Last is N - 1,
    forall(between(0, Last, Id), decide_row(Classes, M, Id, 65, Default, Array)),
    Array =.. [_|Codes],
    string_codes(String, Codes).

decide_row([], _, Id, _, Default, Array) :-
    I is Id + 1,
    nb_setarg(I, Array, Default).
decide_row([Class|Classes], M, Id, Code, Default, Array) :-
    (   call(M:Class, Id)
    ->  I is Id + 1,
        nb_setarg(I, Array, Code)
    ;   Next is Code + 1,
        decide_row(Classes, M, Id, Next, Default, Array)
    ).

%!  fold_justify(+Program, +Rows, +Spec, +Id, +LimitMs, -Status, -Text) is det.
%
%   Text is the proof of label(Id, Class): the goals that hold, and for each
%   negated or failed goal, where each of its clauses fails. Goals of the
%   data predicates are shown as facts (as they are in the program's file).

fold_justify(Program, Rows, SpecText, Id, LimitMs, Status, Text) :-
    guarded(LimitMs, justify(Program, Rows, SpecText, Id, Text), Status),
    ( var(Text) -> Text = "" ; true ).

justify(Program, Rows, SpecText, Id, Text) :-
    read_spec(SpecText, spec(RowPred, Label, _Classes, Columns)),
    data_predicates(RowPred, Columns, Data),
    in_temporary_module(M,
                        load(M, Program, Rows, RowPred, Columns),
                        justify_in(M-Data, Label, Id, Text)).

justify_in(Context, Label, Id, Text) :-
    Goal =.. [Label, Id, _],
    once(prove(Context, Goal, Proof)),
    with_output_to(string(Text), show(Proof, 0)).

read_spec(Text, Spec) :-
    term_string(Spec0, Text),
    (   Spec0 = spec(RowPred, Label, Classes, Columns),
        atom(RowPred), atom(Label), is_list(Classes), is_list(Columns)
    ->  Spec = Spec0
    ;   domain_error(fold_spec, Spec0)
    ).

data_predicates(RowPred, Columns, [RowPred/1|Data]) :-
    foldl(column_predicates, Columns, Data, []).

column_predicates(num(F), [F/2|T], T).
column_predicates(cat(F, Neg), [F/2, Neg/2|T], T).

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

load(M, Program, Rows, RowPred, Columns) :-
    setup_call_cleanup(open_string(Program, In),
                       read_program(In, M),
                       close(In)),
    length(Columns, K),
    Arity is K + 1,
    dynamic(M:'$row'/Arity),
    define_views(M, RowPred, Columns, Arity),
    setup_call_cleanup(open_string(Rows, RowsIn),
                       read_rows(RowsIn, M, Arity),
                       close(RowsIn)).

%   The program is read clause by clause (a syntax error is an error, not a
%   warning); its only directives may be dynamic/1 declarations. Its clauses
%   are compiled with the optimise flag on (arithmetic compiled inline, as
%   `swipl -O` does): the same answers, a faster query.

read_program(In, M) :-
    current_prolog_flag(optimise, Old),
    setup_call_cleanup(set_prolog_flag(optimise, true),
                       read_clauses(In, M),
                       set_prolog_flag(optimise, Old)).

read_clauses(In, M) :-
    repeat,
    read_term(In, Term, [syntax_errors(error)]),
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

%   Rows come as lists of facts; a failure-driven loop over the lists keeps
%   the stack small whatever the number of rows.

read_rows(In, M, Arity) :-
    repeat,
    read_term(In, Rows, [syntax_errors(error)]),
    (   Rows == end_of_file
    ->  !
    ;   assert_rows(Rows, M, Arity),
        fail
    ).

assert_rows(Rows, M, Arity) :-
    (   is_list(Rows),
        ground(Rows)
    ->  assert_rows_(Rows, M, Arity)
    ;   domain_error(fold_rows, Rows)
    ).

assert_rows_([], _, _).
assert_rows_([Row|Rows], M, Arity) :-
    (   compound_name_arity(Row, '$row', Arity),
        arg(1, Row, Id),
        integer(Id)
    ->  assertz(M:Row)
    ;   domain_error(fold_row, Row)
    ),
    assert_rows_(Rows, M, Arity).

%   The views: each data predicate of the program gets one clause reading
%   its cell of the row facts. They must be dynamic predicates the program
%   declared and left empty.

define_views(M, RowPred, Columns, Arity) :-
    functor(Any, '$row', Arity),
    arg(1, Any, X),
    RowHead =.. [RowPred, X],
    define(M, RowHead, Any),
    foldl(column_views(M, Arity), Columns, 2, _).

column_views(M, Arity, num(F), J, J1) :-
    J1 is J + 1,
    cell(Arity, J, X, V, Row),
    Head =.. [F, X, V],
    define(M, Head, (Row, number(V))).
column_views(M, Arity, cat(F, Neg), J, J1) :-
    J1 is J + 1,
    cell(Arity, J, X, V, Row),
    Head =.. [F, X, V],
    define(M, Head, (Row, atom(V))),
    cell(Arity, J, Y, neg(Ws), NegRow),
    NegHead =.. [Neg, Y, W],
    define(M, NegHead, (NegRow, member(W, Ws))).

cell(Arity, J, X, V, Row) :-
    functor(Row, '$row', Arity),
    arg(1, Row, X),
    arg(J, Row, V).

define(M, Head, Body) :-
    (   predicate_property(M:Head, dynamic),
        \+ clause(M:Head, _)
    ->  assertz(M:(Head :- Body))
    ;   functor(Head, Name, Arity),
        domain_error(fold_data_predicate, Name/Arity)
    ).

guarded(LimitMs, Goal, Status) :-
    Limit is LimitMs / 1000,
    catch(( call_with_time_limit(Limit, Goal) -> Status = "ok" ; Status = "failed" ),
          Error,
          status_of(Error, Status)).

status_of(time_limit_exceeded, "timeout") :- !.
status_of(time_limit_exceeded(_), "timeout") :- !.
status_of(Error, Status) :-
    format(string(Status), "error: ~W", [Error, [quoted(true), max_depth(12)]]).

%   Justification (a small meta-interpreter) ------------------------------

builtin(G) :-
    compound(G),
    compound_name_arity(G, N, A),
    memberchk(N/A, [number/1, (=<)/2, (>)/2, (\==)/2, (=)/2]).

%   The context is M-Data: the module, and the data predicates (Name/Arity),
%   whose goals are shown as facts rather than as their view clauses.

prove(_, true, true) :- !.
prove(C, (A, B), and(PA, PB)) :- !,
    prove(C, A, PA),
    prove(C, B, PB).
prove(C, (If -> Then ; Else), Proof) :- !,
    (   prove(C, If, PIf)
    ->  prove(C, Then, PThen), Proof = and(PIf, PThen)
    ;   why_not(C, If, Why), prove(C, Else, PElse), Proof = and(failed(If, Why), PElse)
    ).
prove(C, (A ; B), Proof) :- !,
    (   prove(C, A, Proof)
    ;   prove(C, B, Proof)
    ).
prove(C, \+ G, not(G, Why)) :- !,
    \+ prove(C, G, _),
    why_not(C, G, Why).
prove(_, G, builtin(G)) :-
    builtin(G), !,
    call(G).
prove(M-Data, G, fact(G)) :-
    data_goal(G, Data), !,
    call(M:G).
prove(M-Data, G, Proof) :-
    clause(M:G, Body),
    (   Body == true
    ->  Proof = fact(G)
    ;   prove(M-Data, Body, PB),
        Proof = rule(G, PB)
    ).

data_goal(G, Data) :-
    callable(G),
    functor(G, Name, Arity),
    memberchk(Name/Arity, Data).

why_not(M-Data, G, Why) :-
    findall(fails_at(Head, At),
            ( clause(M:G, Body), Head = G, first_failure(M-Data, Body, At) ),
            Why).

first_failure(C, (A, B), At) :- !,
    (   prove(C, A, _)
    ->  first_failure(C, B, At)
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
