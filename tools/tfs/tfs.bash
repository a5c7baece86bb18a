# bash completion for tfs (installed as share/bash-completion/completions/tfs)
_tfs() {
    local cur prev cmd
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()
    if [[ $COMP_CWORD -eq 1 ]]; then
        mapfile -t COMPREPLY < <(compgen -W "check dump rules mutate mint conform help --help --version" -- "$cur")
        return
    fi
    cmd=${COMP_WORDS[1]}
    if [[ $prev == --format ]]; then
        mapfile -t COMPREPLY < <(compgen -W "safetensors gguf" -- "$cur")
        return
    fi
    if [[ $cmd == mutate && $prev == --mutation ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(tfs mutate --list 2> /dev/null | cut -d' ' -f1)" -- "$cur")
        return
    fi
    local opts=""
    case $cmd in
    check) opts="--json --strict --header-only --format -r --recursive -q --quiet --lint --config --help" ;;
    dump)
        case $prev in
        --sort) mapfile -t COMPREPLY < <(compgen -W "file offset size name" -- "$cur"); return ;;
        --keys | --tensors) return ;;
        esac
        opts="--json --content-only --full --keys --tensors --no-tensors --sort --tree --strict --header-only --format --help" ;;
    rules) opts="--json --tsv --help" ;;
    mutate) opts="--seed --mutation --expect --tries --profile --max-size --crossover --json -q --quiet --list --help" ;;
    mint) opts="--out --rule --profile --budget --seed --max-candidates --strategies --format --byte-tests --against --mutant --oracle --timeout --help" ;;
    conform)
        case $prev in
        --profile) mapfile -t COMPREPLY < <(compgen -W "default strict header-only" -- "$cur"); return ;;
        --expect) mapfile -t COMPREPLY < <(compgen -W "valid parser_error implementation_defined" -- "$cur"); return ;;
        --fixtures) compopt -o filenames 2> /dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return ;;
        --category-map) compopt -o filenames 2> /dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;
        --adapter | -j | --jobs | --timeout | --output-cap | --rule | --id | --tag | --shard) return ;;
        esac
        opts="--lint --adapter --shell -j --jobs --timeout --output-cap --fixtures --format --profile --strict --header-only
              --rule --expect --id --tag --shard --expected-failures --write-expected-failures --json --tap --junit -q --quiet
              --list --category-map --content --no-sanity-check --help"
        if [[ $cur == -* ]]; then mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur"); return; fi
        compopt -o filenames 2> /dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        return
        ;;
    help)
        [[ $COMP_CWORD -eq 2 ]] && mapfile -t COMPREPLY < <(compgen -W "check conform dump mint mutate rules" -- "$cur")
        return
        ;;
    *) return ;;
    esac
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
        return
    fi
    [[ $cmd == rules ]] && return
    # files (model files first when any match) and directories
    compopt -o filenames 2> /dev/null
    local f lf
    while IFS= read -r f; do
        lf=${f,,}
        if [[ -d $f || $lf == *.gguf || $lf == *.safetensors || $lf == *.gguf.part || $lf == *.gguf.partial ||
            $lf == *.safetensors.part || $lf == *.safetensors.partial ]]; then
            COMPREPLY+=("$f")
        fi
    done < <(compgen -f -- "$cur")
    if [[ ${#COMPREPLY[@]} -eq 0 ]]; then
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
}
complete -F _tfs tfs
