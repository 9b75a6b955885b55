/*  Runtime of the fold package: runs learned programs for fold.engine.

    Every entry point loads a program and its data into a fresh temporary
    module (in_temporary_module/3), works there, and the module is destroyed
    afterwards: nothing is left in the global database. Every entry point runs
    under call_with_time_limit/2 and reports its outcome in Status ("ok",
    "failed", "timeout" or "error: ...") instead of throwing.

    Data are one fact per row, '$row'(Cell1, ..., CellK), in row order (a
    row's Id is its position), read in lists of rows (fold/facts.py writes
    them) and asserted only if each is a ground '$row' fact of the expected
    arity: data can never add a clause with a body, a directive, or a fact
    of any other predicate, and nothing read from data is ever called. A
    categorical column comes with its list of categories (the spec's
    cat(Feature, Neg, Categories)); an integer cell K in it stands for the
    K-th category, and is replaced by it before the row is asserted.

    The program runs unchanged, with its row variable X bound to a row fact
    (the term '$row'(Cell1, ..., CellK)) instead of the row's Id: each data
    predicate of the program is defined as a view of that term,

        Feature(R, V)    :- arg(J, R, V), number(V).             % num(Feature)
        Feature(R, V)    :- arg(J, R, V), atom(V).               % cat(Feature, Neg, _)
        Neg(R, V)        :- arg(J, R, neg(Vs)), lists:member(V, Vs).
        Row(R)           :- nonvar(R), R = '$row'(_, ..., _).

    so a feature lookup is one arg/3 on the row at hand, and for the fact of
    row Id the program sees exactly the one-fact-per-cell data of its file
    (fold.facts.write_facts), with the row term in place of Id. The engine
    always calls the program with the row bound; evaluation walks the row
    facts once, in order, and decides each row as it comes.
*/

:- module(fold_runtime,
          [ fold_evaluate/7,        % +Program, +Rows, +Spec, +LimitMs, -Status, -Codes, -Times
            fold_justify/8,         % +Program, +Rows, +Spec, +Nth, +Id, +LimitMs, -Status, -Text
            fold_reserved/1,        % -Text
            fold_error_text/2       % +Error, -Text
          ]).

:- use_module(library(modules)).
:- use_module(library(time)).
:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(error)).
:- use_module(library(solution_sequences)).
% Every library is loaded here, not autoloaded on first use: a time limit that strikes
% while a library loads leaves it half-defined for the rest of the process.

%!  fold_evaluate(+Program, +Rows, +Spec, +LimitMs, -Status, -Codes, -Times) is det.
%
%   Codes is a string with one character per row, in the order of the row
%   facts: code 65+K when the row gets the K-th label of the decision list
%   (the default is last). Each row is decided as the program's label/2
%   decides it: the first class predicate that holds for it, else the
%   default. Times is "LoadSeconds QuerySeconds".

fold_evaluate(Program, Rows, SpecText, LimitMs, Status, Codes, Times) :-
    guarded(LimitMs, evaluate(Program, Rows, SpecText, Codes, Times), Status),
    ( var(Codes) -> Codes = "" ; true ),
    ( var(Times) -> Times = "" ; true ).

evaluate(Program, Rows, SpecText, Codes, Times) :-
    read_spec(SpecText, spec(RowPred, _Label, Classes, Columns)),
    get_time(T0),
    in_temporary_module(M,
                        load(M, Program, Rows, RowPred, Columns, unfolded),
                        timed_decide(M, Classes, Columns, Codes, T0, Times)).

timed_decide(M, Classes, Columns, Codes, T0, Times) :-
    get_time(T1),
    decide(M, Classes, Columns, Codes),
    get_time(T2),
    Load is T1 - T0,
    Query is T2 - T1,
    format(string(Times), "~15e ~15e", [Load, Query]).

%   One pass over the row facts, in order; the decision list is one goal,
%   ( Class1(Row) -> Code = 65 ; Class2(Row) -> Code = 66 ; ... ; Code = D ),
%   built once.

decide(M, Classes, Columns, String) :-
    row_term(Columns, Row),
    decision(Classes, M, Row, 65, Code, Decision),
    findall(Code, (M:Row, Decision), Codes),
    string_codes(String, Codes).

decision([], _, _, Code, Var, Var = Code).
decision([Class|Classes], M, Row, Code, Var, (M:Goal -> Var = Code ; Else)) :-
    Goal =.. [Class, Row],
    Next is Code + 1,
    decision(Classes, M, Row, Next, Var, Else).

row_term(Columns, Row) :-
    length(Columns, K),
    compound_name_arity(Row, '$row', K).

%!  fold_justify(+Program, +Rows, +Spec, +Nth, +Id, +LimitMs, -Status, -Text) is det.
%
%   Text is the proof of label(Id, Class) for the Nth row (from 0) of Rows,
%   whose Id is Id: the goals that hold, and for each negated or failed
%   goal, where each of its clauses fails (a failed comparison with the fact
%   whose value it tests). Goals of the data predicates are shown as facts
%   (as they are in the program's file), and the row term the program runs
%   on is shown as the row's Id.

fold_justify(Program, Rows, SpecText, Nth, Id, LimitMs, Status, Text) :-
    guarded(LimitMs, justify(Program, Rows, SpecText, Nth, Id, Text), Status),
    ( var(Text) -> Text = "" ; true ).

justify(Program, Rows, SpecText, Nth, Id, Text) :-
    read_spec(SpecText, spec(RowPred, Label, _Classes, Columns)),
    views(RowPred, Columns, Views),
    data_predicates(Views, Data),
    in_temporary_module(M,
                        load(M, Program, Rows, RowPred, Columns, plain),
                        justify_in(M-Data, Label, Columns, Nth, Id, Text)).

justify_in(M-Data, Label, Columns, Nth, Id, Text) :-
    row_term(Columns, Row),
    Nth1 is Nth + 1,
    call_nth(M:Row, Nth1), !,
    Goal =.. [Label, Row, _],
    once(prove(M-Data, Goal, Proof0)),
    row_as_id(Id, Proof0, Proof),
    with_output_to(string(Text), show(Proof, 0)).

read_spec(Text, Spec) :-
    term_string(Spec0, Text),
    (   Spec0 = spec(RowPred, Label, Classes, Columns),
        atom(RowPred), atom(Label),
        is_list(Classes), maplist(atom, Classes),
        is_list(Columns), maplist(column, Columns)
    ->  Spec = Spec0
    ;   domain_error(fold_spec, Spec0)
    ).

column(num(F)) :-
    atom(F).
column(cat(F, Neg, Categories)) :-
    atom(F), atom(Neg),
    is_list(Categories), maplist(atom, Categories).

data_predicates(Views, Data) :-
    findall(Name/Arity, ( member((Head :- _), Views), functor(Head, Name, Arity) ), Data).

%!  fold_reserved(-Text) is det.
%
%   One line "Arity<TAB>Name" per predicate a program must not define, as
%   plain swipl loads it into module user: the predicates of module system,
%   the hooks declared multifile in module user (by SWI-Prolog and the
%   libraries loaded so far) and the hooks of user_hook/2.

fold_reserved(Text) :-
    findall(A-N, reserved(N, A), Pairs0),
    sort(Pairs0, Pairs),
    with_output_to(string(Text),
                   forall(member(A-N, Pairs), format("~d\t~w~n", [A, N]))).

reserved(N, A) :-
    current_predicate(system:N/A).
reserved(N, A) :-
    predicate_property(user:Head, multifile),
    \+ predicate_property(user:Head, imported_from(_)),
    functor(Head, N, A).
reserved(N, A) :-
    user_hook(N, A).

%   Hooks SWI-Prolog or its libraries call in module user (manual: "hooks"),
%   declared there or not: a clause of one, loaded into user, changes how
%   Prolog prints, loads, expands or reports (portray/1, term_expansion/2 ...).

user_hook(portray, 1).
user_hook(exception, 3).
user_hook(message_hook, 3).
user_hook(thread_message_hook, 3).
user_hook(message_property, 2).
user_hook(term_expansion, 2).
user_hook(term_expansion, 4).
user_hook(goal_expansion, 2).
user_hook(goal_expansion, 4).
user_hook(file_search_path, 2).
user_hook(library_directory, 1).
user_hook(prolog_file_type, 2).
user_hook(prolog_load_file, 2).
user_hook(expand_query, 4).
user_hook(expand_answer, 2).
user_hook(resource, 2).
user_hook(resource, 3).
user_hook(prolog_list_goal, 1).
user_hook(prolog_predicate_name, 2).
user_hook(prolog_clause_name, 2).
user_hook(prolog_trace_interception, 4).
user_hook(prolog_exception_hook, 4).
user_hook(url_path, 2).

%   Loading -------------------------------------------------------------

%!  load(+M, +Program, +Rows, +RowPred, +Columns, +Mode) is det.
%
%   Load Program, its views (views/3) and Rows into module M. Mode is
%   `plain` (the program's clauses as written) or `unfolded`: every call
%   of a data predicate in a clause body is replaced by the body of its
%   view, so a feature lookup is an inline arg/3 rather than a call (the
%   same answers: each view is one non-recursive clause).

load(M, Program, Rows, RowPred, Columns, Mode) :-
    views(RowPred, Columns, Views),
    setup_call_cleanup(open_string(Program, In),
                       read_program(In, M, Views, Mode),
                       close(In)),
    length(Columns, Arity),
    dynamic(M:'$row'/Arity),
    maplist(define(M), Views),
    findall(J-Table, ( nth1(J, Columns, cat(_, _, Categories)),
                       compound_name_arguments(Table, categories, Categories) ),
            Tables),
    setup_call_cleanup(open_string(Rows, RowsIn),
                       read_rows(RowsIn, M, Arity, Tables),
                       close(RowsIn)).

%   The program is read clause by clause (a syntax error is an error, not a
%   warning); its only directives may be encoding(utf8) (the text is
%   already a string here) and dynamic/1 declarations. Its clauses
%   are compiled with the optimise flag on (arithmetic compiled inline, as
%   `swipl -O` does): the same answers, a faster query.

read_program(In, M, Views, Mode) :-
    current_prolog_flag(optimise, Old),
    setup_call_cleanup(set_prolog_flag(optimise, true),
                       read_clauses(In, M, Views, Mode),
                       set_prolog_flag(optimise, Old)).

read_clauses(In, M, Views, Mode) :-
    repeat,
    read_term(In, Term, [syntax_errors(error)]),
    (   Term == end_of_file
    ->  !
    ;   program_term(Term, M, Views, Mode),
        fail
    ).

program_term((:- encoding(utf8)), _, _, _) :- !.
program_term((:- dynamic(Name/Arity)), M, _, _) :- !,
    must_be(atom, Name),
    must_be(nonneg, Arity),
    dynamic(M:Name/Arity).
program_term((:- Directive), _, _, _) :- !,
    domain_error(fold_program_directive, Directive).
program_term((Head :- Body), M, Views, unfolded) :- !,
    unfold(Body, Views, Unfolded),
    assertz(M:(Head :- Unfolded)).
program_term(Clause, M, _, _) :-
    assertz(M:Clause).

unfold(Var, _, Var) :-
    var(Var), !.
unfold((A, B), Views, (UA, UB)) :- !,
    unfold(A, Views, UA),
    unfold(B, Views, UB).
unfold((A ; B), Views, (UA ; UB)) :- !,
    unfold(A, Views, UA),
    unfold(B, Views, UB).
unfold((A -> B), Views, (UA -> UB)) :- !,
    unfold(A, Views, UA),
    unfold(B, Views, UB).
unfold(\+ A, Views, \+ UA) :- !,
    unfold(A, Views, UA).
unfold(Goal, Views, Body) :-
    member((Head :- ViewBody), Views),
    \+ Head \= Goal, !,
    copy_term((Head :- ViewBody), (Goal :- Body)).
unfold(Goal, _, Goal).

%   Rows come as lists of facts; a failure-driven loop over the lists keeps
%   the stack small whatever the number of rows. Tables holds J-Table for
%   each categorical column J, Table = categories(Category1, ...).

read_rows(In, M, Arity, Tables) :-
    repeat,
    read_term(In, Rows, [syntax_errors(error)]),
    (   Rows == end_of_file
    ->  !
    ;   assert_rows(Rows, M, Arity, Tables),
        fail
    ).

assert_rows(Rows, M, Arity, Tables) :-
    (   is_list(Rows),
        ground(Rows)
    ->  assert_rows_(Rows, M, Arity, Tables)
    ;   domain_error(fold_rows, Rows)
    ).

assert_rows_([], _, _, _).
assert_rows_([Row|Rows], M, Arity, Tables) :-
    (   compound(Row),
        compound_name_arity(Row, '$row', Arity),
        categories(Tables, Row)
    ->  assertz(M:Row)
    ;   domain_error(fold_row, Row)
    ),
    assert_rows_(Rows, M, Arity, Tables).

categories([], _).
categories([J-Table|Tables], Row) :-
    arg(J, Row, Cell),
    (   integer(Cell)
    ->  arg(Cell, Table, Category),
        setarg(J, Row, Category)
    ;   true
    ),
    categories(Tables, Row).

%!  views(+RowPred, +Columns, -Views) is det.
%
%   Views are the clauses (Head :- Body) that define each data predicate of
%   the program on the row term it is given, the row predicate first.

views(RowPred, Columns, [(RowHead :- nonvar(R), R = Any)|Views]) :-
    row_term(Columns, Any),
    RowHead =.. [RowPred, R],
    column_views(Columns, 1, Views).

column_views([], _, []).
column_views([Column|Columns], J, Views) :-
    column_views(Column, J, Views, Rest),
    J1 is J + 1,
    column_views(Columns, J1, Rest).

column_views(num(F), J, [(Head :- arg(J, R, V), number(V))|T], T) :-
    Head =.. [F, R, V].
column_views(cat(F, Neg, _), J, [(Head :- arg(J, R, V), atom(V)),
                              (NegHead :- arg(J, S, neg(Ws)), lists:member(W, Ws))|T],
             T) :-
    Head =.. [F, R, V],
    NegHead =.. [Neg, S, W].

%   A view is defined only for a dynamic predicate the program declared and
%   left empty.

define(M, (Head :- Body)) :-
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
    fold_error_text(Error, Text),
    string_concat("error: ", Text, Status).

%!  fold_error_text(+Error, -Text) is det.
%
%   An error term as every message shows it (an error status here, an exception in
%   fold/engine.py): quoted, so on one line, cut off at depth 10, and calling nothing
%   of the user's (portray/1 hooks, attribute portrayal).

fold_error_text(Error, Text) :-
    term_string(Error, Text,
                [quoted(true), max_depth(10), portray(false), attributes(ignore)]).

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
    findall(fails_at(Head, At, Tested, Because),
            ( clause(M:G, Body), Head = G, first_failure(M-Data, Body, none, At, Tested),
              because(M-Data, At, Because) ),
            Why).

%   A clause that fails at \+ G fails because G holds: its proof.

because(C, \+ G, holds(Proof)) :-
    once(prove(C, G, Proof)), !.
because(_, _, none).

%   At is the first goal of a clause body that fails; Tested the last data goal proven
%   before it (fact(Goal), or none): the cell a failed comparison tests.

first_failure(C, (A, B), Tested0, At, Tested) :- !,
    (   prove(C, A, Proof)
    ->  ( Proof = fact(_) -> Tested1 = Proof ; Tested1 = Tested0 ),
        first_failure(C, B, Tested1, At, Tested)
    ;   At = A,
        Tested = Tested0
    ).
first_failure(_, G, Tested, G, Tested).

show(true, _).
show(and(A, B), I) :-
    show(A, I),
    show(B, I).
show(fact(G), I) :-
    line(I, "~@ is a fact", [goal(G)]).
show(builtin(G), I) :-
    line(I, "~@ holds", [goal(G)]).
show(rule(G, P), I) :-
    line(I, "~@ holds because", [goal(G)]),
    I2 is I + 2,
    show(P, I2).
show(not(G, Why), I) :-
    line(I, "\\+ ~@ holds, because ~@ fails:", [goal(G), goal(G)]),
    I2 is I + 2,
    show_why(Why, I2).
show(failed(G, Why), I) :-
    line(I, "~@ fails:", [goal(G)]),
    I2 is I + 2,
    show_why(Why, I2).

show_why([], I) :-
    line(I, "no clause applies", []).
show_why([W|Ws], I) :-
    forall(member(fails_at(Head, At, Tested, Because), [W|Ws]),
           (   copy_term(At, Shown),
               numbervars(Shown, 0, _, [singletons(true)]),  % an unknown cell: w(4,_)
               (   builtin(At), Tested = fact(Fact)  % 1.0>1.5: which feature is 1.0
               ->  line(I, "a clause of ~@ fails at ~@ (after the fact ~@)",
                        [goal(Head), goal(Shown), goal(Fact)])
               ;   line(I, "a clause of ~@ fails at ~@", [goal(Head), goal(Shown)])
               ),
               I2 is I + 2,
               show_because(Because, I2)
           )).

show_because(none, _).
show_because(holds(Proof), I) :-
    show(Proof, I).

%   A goal as the program writes it: a predicate of the program (a feature, class or ab
%   predicate, whose name may be an operator such as - or \) in canonical form, -(3,b)
%   and +(3), not 3-b and +3; the built-ins and control constructs with their operators
%   (2.0>1.5, \+ab0(3), (c(3,A),A\==a;neg_c(3,a))). Variables print as numbervars/3
%   named them.

goal((A, B)) :- !,
    goal(A), write(','), goal(B).
goal((A ; B)) :- !,
    write('('), goal(A), write(';'), goal(B), write(')').
goal(\+ A) :- !,
    write('\\+'), goal(A).
goal(G) :-
    builtin(G), !,
    write_term(G, [quoted(true), numbervars(true)]).
goal(G) :-
    write_term(G, [quoted(true), numbervars(true), ignore_ops(true)]).

line(I, Format, Args) :-
    format("~t~*|", [I]),
    format(Format, Args),
    nl.

%   A proof as shown: the row term (the only '$row' compound in it; data
%   cells are numbers, atoms and neg/1 terms) replaced by the row's Id.

row_as_id(_, T, T) :-
    \+ compound(T), !.
row_as_id(Id, T, Id) :-
    compound_name_arity(T, '$row', _), !.
row_as_id(Id, T, S) :-
    compound_name_arguments(T, Name, Args),
    maplist(row_as_id(Id), Args, Shown),
    compound_name_arguments(S, Name, Shown).
